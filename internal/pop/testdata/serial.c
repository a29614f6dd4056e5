/* Half serial, half parallel: 250 ms on the initial thread alone, then
 * a parallel region in which each of two threads works 250 ms. The
 * serial fraction is 0.5, the load balance 1, the parallel efficiency
 * 0.5/2 + 0.5 = 0.75. The work is sleeping, so that it takes its time
 * even on a loaded machine. */
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
	work(250);
#pragma omp parallel num_threads(2)
	{
		work(250);
	}
	puts("done");
	return 0;
}
