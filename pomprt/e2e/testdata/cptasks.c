/* Call paths of tasks: producer(), called in a single region, creates
 * tasks that call work(); other threads run most of them. Prints the
 * number of tasks. */
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#define NTASKS 24

static uint64_t ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) void work(int i)
{
	uint64_t t0 = ns();
	while (ns() - t0 < 500000)
		;
	(void)i;
}

__attribute__((noinline)) void producer(void)
{
	for (int i = 0; i < NTASKS; i++) {
#pragma omp task firstprivate(i)
		work(i);
	}
#pragma omp taskwait
}

int main(void)
{
#pragma omp parallel
	{
#pragma omp single
		producer();
	}
	printf("tasks %d\n", NTASKS);
	return 0;
}
