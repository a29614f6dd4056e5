/* Call paths: top -> mid -> leaf with known spins, measured by the
 * program's own clock, in main and in a parallel region; prints what it
 * measured (ns) per function, exclusive and inclusive, for the test to
 * compare with the call-path profile. */
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <omp.h>

static uint64_t ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

/* spin busy-waits for d ns and returns the time it took. */
__attribute__((noinline)) static uint64_t spin(uint64_t d)
{
	uint64_t t0 = ns(), t;
	do {
		sink++;
		t = ns();
	} while (t - t0 < d);
	return t - t0;
}

static uint64_t leaf_ns, mid_ns, top_ns; /* inclusive, by the thread that ran main's calls */

__attribute__((noinline)) void leaf(void)
{
	uint64_t t0 = ns();
	spin(2000000);
	leaf_ns += ns() - t0;
}

__attribute__((noinline)) void mid(void)
{
	uint64_t t0 = ns();
	spin(1000000);
	leaf();
	leaf();
	mid_ns += ns() - t0;
}

__attribute__((noinline)) void top(void)
{
	uint64_t t0 = ns();
	spin(3000000);
	mid();
	top_ns += ns() - t0;
}

int main(void)
{
	for (int i = 0; i < 4; i++)
		top();
	long sum = 0;
#pragma omp parallel reduction(+ : sum)
	{
		sum += omp_get_thread_num() >= 0;
#pragma omp for
		for (int i = 0; i < 8; i++)
			spin(100000);
	}
	printf("top %llu mid %llu leaf %llu\n", (unsigned long long)top_ns, (unsigned long long)mid_ns, (unsigned long long)leaf_ns);
	fprintf(stderr, "threads %ld\n", sum);
	return 0;
}
