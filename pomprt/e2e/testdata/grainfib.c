/* fib(n) with a cutoff: two tasks per call above the cutoff, created
 * inside single; then a taskloop with a grainsize. The grains are known
 * by construction. */
#include <stdio.h>
#include <stdlib.h>

static long serial(int n) { return n < 2 ? n : serial(n - 1) + serial(n - 2); }

static long fib(int n, int cutoff)
{
  long x, y;
  if (n < 2 || n <= cutoff)
    return serial(n);
  #pragma omp task shared(x) firstprivate(n, cutoff)
  x = fib(n - 1, cutoff);
  #pragma omp task shared(y) firstprivate(n, cutoff)
  y = fib(n - 2, cutoff);
  #pragma omp taskwait
  return x + y;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 18, cutoff = argc > 2 ? atoi(argv[2]) : 6;
  long r = 0, sum = 0;
  #pragma omp parallel
  {
    #pragma omp single
    {
      r = fib(n, cutoff);
      #pragma omp taskloop grainsize(7) shared(sum)
      for (int i = 0; i < 100; i++) {
        #pragma omp atomic
        sum += i;
      }
    }
  }
  printf("fib(%d) = %ld, sum %ld\n", n, r, sum);
  return 0;
}
