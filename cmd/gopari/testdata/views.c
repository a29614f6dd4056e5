/* A little of everything the views of a profile show, for the test that
 * renders one profile through all of them (TestViewsAgree): serial code,
 * a worksharing loop, tasks created recursively in a single construct
 * (more than the runtime times one by one: their times are estimates),
 * taskwait, a taskgroup, a taskloop, sections, a critical section, a
 * lock acquired 10 times by thread 0 and 7 times by thread 1 (17 visits),
 * tasks left to the closing barrier of a parallel region, and nested
 * teams (2 of 2 threads inside the outer team of 2: 6 team members). */
#include <omp.h>
#include <stdio.h>

static volatile double sink;

static void spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 1e-9;
	sink = x;
}

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
	spin(2000000);
#pragma omp parallel num_threads(2)
	{
#pragma omp for schedule(dynamic, 16) reduction(+ : sum)
		for (int i = 0; i < 4000; i++)
			sum += i * 0.5;
#pragma omp single
		r = fib(18);
#pragma omp critical
		spin(200000);
		for (int i = 0; i < (omp_get_thread_num() == 0 ? 10 : 7); i++) {
			omp_set_lock(&lock);
			sum += 1;
			omp_unset_lock(&lock);
		}
#pragma omp sections
		{
#pragma omp section
			spin(300000);
#pragma omp section
			spin(100000);
		}
#pragma omp single
		{
#pragma omp taskgroup
			{
#pragma omp task
				spin(200000);
			}
#pragma omp taskloop num_tasks(4)
			for (int i = 0; i < 8; i++)
				spin(50000);
		}
#pragma omp single nowait
		for (int i = 0; i < 8; i++) {
#pragma omp task
			spin(300000);
		}
	}
	omp_destroy_lock(&lock);
	omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
	{
#pragma omp parallel num_threads(2)
		spin(100000);
	}
	spin(1000000);
	printf("fib %ld sum %.1f\n", r, sum);
	return 0;
}
