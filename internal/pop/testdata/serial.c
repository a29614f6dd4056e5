/* Half serial, half parallel: 250 ms on the initial thread alone, then
 * a parallel region in which each of two threads works 250 ms. Unloaded,
 * the serial fraction is 0.5, the load balance 1, the parallel
 * efficiency 0.5/2 + 0.5 = 0.75. The work is sleeping, so that it takes
 * its time even on a loaded machine; on one, a sleep can last longer and
 * a thread start late, so the program measures itself (CLOCK_MONOTONIC)
 * and writes to own.txt: the serial work, the parallel region from
 * before the fork to after the join, and each thread's work. */
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
	double w[2] = {0, 0};
	double t0 = now();
	work(250);
	double serial = now() - t0;
	double fork = now();
#pragma omp parallel num_threads(2)
	{
		double b = now();
		work(250);
		w[omp_get_thread_num()] = now() - b;
	}
	double region = now() - fork;
	FILE *f = fopen("own.txt", "w");
	if (!f)
		return 1;
	fprintf(f, "serial %.9f region %.9f work %.9f %.9f\n", serial, region, w[0], w[1]);
	fclose(f);
	puts("done");
	return 0;
}
