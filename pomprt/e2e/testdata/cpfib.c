/* Call paths with recursion and tasks: fib(N) calls fib 2*fib(N+1)-1
 * times, half of them in tasks. Prints the result and the calls. */
#include <stdio.h>

#define N 14

__attribute__((noinline)) long fib(int n)
{
	if (n < 2)
		return n;
	long x, y;
#pragma omp task shared(x) firstprivate(n)
	x = fib(n - 1);
	y = fib(n - 2);
#pragma omp taskwait
	return x + y;
}

int main(void)
{
	long r = 0;
#pragma omp parallel
	{
#pragma omp single
		r = fib(N);
	}
	printf("fib(%d) = %ld, calls %ld\n", N, r, 2 * fib(N + 1) - 1);
	return 0;
}
