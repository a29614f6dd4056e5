/* Calls a function of a shared library (cplib.c) from a static function
 * inside a parallel loop: 8 calls of each. Stripped, the static function
 * has no name left and is shown by its address. */
#include <stdio.h>

long libwork(long n);

static __attribute__((noinline)) long local(long n) { return libwork(n) + 1; }

int main(void)
{
	long s = 0;
#pragma omp parallel for reduction(+ : s)
	for (int i = 0; i < 8; i++)
		s += local(1000);
	printf("%ld\n", s);
	return 0;
}
