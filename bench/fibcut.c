/* fib with a cutoff: a task for each recursive call down to depth
 * cutoff, serial calls below it (BOTS fib's "manual" cutoff), from one
 * thread in a parallel region. Usage: fibcut [n] [cutoff]. Prints on
 * stderr the wall and process CPU time of the parallel region, in ns,
 * and on stdout fib(n). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>

static long fib_seq(int n)
{
  return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2);
}

static long fib(int n, int depth, int cutoff)
{
  long x, y;
  if (n < 2)
    return n;
  if (depth >= cutoff)
    return fib_seq(n);
  #pragma omp task shared(x) firstprivate(n, depth, cutoff)
  x = fib(n - 1, depth + 1, cutoff);
  #pragma omp task shared(y) firstprivate(n, depth, cutoff)
  y = fib(n - 2, depth + 1, cutoff);
  #pragma omp taskwait
  return x + y;
}

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 36;
  int cutoff = argc > 2 ? atoi(argv[2]) : 12;
  long r = 0;
  double c0 = cpu(), t0 = omp_get_wtime();
  #pragma omp parallel
  #pragma omp single
  r = fib(n, 0, cutoff);
  double t1 = omp_get_wtime(), c1 = cpu();
  fprintf(stderr, "%.0f ns/run\n%.0f cpu-ns/run\n", (t1 - t0) * 1e9, (c1 - c0) * 1e9);
  printf("fib(%d) = %ld\n", n, r);
  return 0;
}
