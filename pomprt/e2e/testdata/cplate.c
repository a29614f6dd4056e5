/* Call paths of a task that begins late: producer(), called in a single
 * region, creates task A, which must wait for task B (depend), and B;
 * B's work creates NSUB more tasks (more than the runtime's ring of
 * creations per thread, 4096) before A may begin. A calls late(). Each
 * of B's tasks calls sub(). Prints the counts. */
#include <stdio.h>

#define NSUB 6000

static volatile long sink;

__attribute__((noinline)) void late(void) { sink++; }

__attribute__((noinline)) void sub(int i) { sink += i; }

__attribute__((noinline)) void spawn(void)
{
	for (int i = 0; i < NSUB; i++) {
#pragma omp task firstprivate(i)
		sub(i);
	}
#pragma omp taskwait
}

__attribute__((noinline)) void producer(void)
{
	int x = 0;
#pragma omp task depend(in : x) shared(x)
	late();
#pragma omp task depend(out : x) shared(x)
	{
		spawn();
		x = 1;
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
	printf("late 1 sub %d\n", NSUB);
	return 0;
}
