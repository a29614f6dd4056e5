/* Costs with a known shape at any load: every thread sleeps 2 ms in a
 * parallel region (constant), then enters a critical section in which
 * it sleeps 1 ms (linear in the threads). */
#include <stdio.h>
#include <time.h>

static void work(long us)
{
	struct timespec ts = {0, us * 1000L};
	while (nanosleep(&ts, &ts))
		;
}

int main(void)
{
#pragma omp parallel
	{
		work(2000);
#pragma omp critical
		work(1000);
	}
	puts("done");
	return 0;
}
