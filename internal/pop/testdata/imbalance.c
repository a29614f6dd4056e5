/* One of two threads does all the work: thread 0 works 300 ms, thread
 * 1 nothing, and waits in the closing barrier. The load balance is 0.5. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static void work(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts))
		;
}

int main(void)
{
	int n = 0;
#pragma omp parallel num_threads(2)
	{
		if (omp_get_thread_num() == 0)
			work(300);
#pragma omp atomic
		n++;
	}
	printf("%d threads\n", n);
	return 0;
}
