/* fib(n) with two tasks per non-leaf call, created inside single. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
  long x, y;
  if (n < 2)
    return n;
  #pragma omp task shared(x) firstprivate(n)
  x = fib(n - 1);
  #pragma omp task shared(y) firstprivate(n)
  y = fib(n - 2);
  #pragma omp taskwait
  return x + y;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 22;
  long r = 0;
  #pragma omp parallel
  {
    #pragma omp single
    r = fib(n);
  }
  printf("fib(%d) = %ld\n", n, r);
  return 0;
}
