/* A little of everything the report shows: a worksharing loop, tasks
 * created recursively in a single construct, taskwait, a critical
 * section and a lock, in a team of two threads. */
#include <omp.h>
#include <stdio.h>

static long fib(int n)
{
	long a, b;
	if (n < 2)
		return n;
#pragma omp task shared(a)
	a = fib(n - 1);
#pragma omp task shared(b)
	b = fib(n - 2);
#pragma omp taskwait
	return a + b;
}

int main(void)
{
	long r = 0;
	double sum = 0;
	omp_lock_t lock;
	omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
	{
#pragma omp for schedule(dynamic, 16) reduction(+ : sum)
		for (int i = 0; i < 4000; i++)
			sum += i * 0.5;
#pragma omp single
		r = fib(11);
#pragma omp critical
		sum += 1;
		omp_set_lock(&lock);
		sum += 1;
		omp_unset_lock(&lock);
	}
	omp_destroy_lock(&lock);
	printf("fib %ld sum %.1f\n", r, sum);
	return 0;
}
