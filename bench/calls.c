/* calls: the cost of one instrumented function call (issue 25). main
 * calls leaf, a function of two instructions that the compiler may not
 * inline, n times in one thread, inside a parallel region run by one
 * thread (OMP_NUM_THREADS=1), as a call in a real OpenMP program runs.
 * Built plainly, each call costs a call and a return; built with gopari
 * cc --functions, leaf's entry and exit hooks too. Usage: calls [n].
 * Prints on stderr the wall and CPU time per call in ns, on stdout the
 * sum of what leaf returned. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>

__attribute__((noinline, noclone)) long leaf(long x)
{
  __asm__ volatile("" : "+r"(x)); /* not folded into the loop */
  return x + 1;
}

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 20000000;
  long sum = 0;
  double c0 = 0, c1 = 0, t0 = 0, t1 = 0;
  #pragma omp parallel reduction(+ : sum)
  {
    #pragma omp master
    {
      c0 = cpu();
      t0 = omp_get_wtime();
      for (long i = 0; i < n; i++)
        sum += leaf(i);
      t1 = omp_get_wtime();
      c1 = cpu();
    }
  }
  fprintf(stderr, "%.3f ns/call\n%.3f cpu-ns/call\n", (t1 - t0) * 1e9 / n, (c1 - c0) * 1e9 / n);
  printf("%ld\n", sum);
  return 0;
}
