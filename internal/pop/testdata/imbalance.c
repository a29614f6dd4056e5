/* One of two threads does all the work: thread 0 works 300 ms, thread
 * 1 nothing, and waits in the closing barrier. Unloaded, the load
 * balance is 0.5. The program measures itself (CLOCK_MONOTONIC) and
 * writes to own.txt: the parallel region from before the fork to after
 * the join, and each thread's work. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static void work(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts))
		;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	int n = 0;
	double w[2] = {0, 0};
	double fork = now();
#pragma omp parallel num_threads(2)
	{
		if (omp_get_thread_num() == 0) {
			double b = now();
			work(300);
			w[0] = now() - b;
		}
#pragma omp atomic
		n++;
	}
	double region = now() - fork;
	FILE *f = fopen("own.txt", "w");
	if (!f)
		return 1;
	fprintf(f, "serial 0 region %.9f work %.9f %.9f\n", region, w[0], w[1]);
	fclose(f);
	printf("%d threads\n", n);
	return 0;
}
