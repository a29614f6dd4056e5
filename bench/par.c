/* Parallel regions that do nothing but note one thread: the cost of a
 * region, fork to join, measured by the program itself. Usage: par
 * [regions]. Prints ns/region on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 200000;
  long count = 0;
  double t0 = omp_get_wtime();
  for (long i = 0; i < n; i++) {
    #pragma omp parallel shared(count)
    if (omp_get_thread_num() == 0)
      count++;
  }
  double t1 = omp_get_wtime();
  fprintf(stderr, "%.2f ns/region\n", (t1 - t0) * 1e9 / (double)n);
  printf("%d\n", count == n);
  return 0;
}
