/* Tasks whose execution times the program knows: one thread creates n
 * tasks, the first 1,000 of which spin 8 µs and the others 1 µs, and each
 * task measures itself. The runtime times the first 1,000 instances of a
 * region and then samples one in 32: an estimate that scaled every timed
 * instance to all would be three times the truth. Prints the number of
 * tasks and the total of their own measurements, in seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 40000;
  double total = 0;
  #pragma omp parallel
  #pragma omp single
  {
    for (int i = 0; i < n; i++) {
      #pragma omp task shared(total) firstprivate(i)
      {
        double t0 = omp_get_wtime();
        spin(i < 1000 ? 8e-6 : 1e-6);
        double t1 = omp_get_wtime();
        #pragma omp atomic
        total += t1 - t0;
      }
    }
    #pragma omp taskwait
  }
  printf("tasks %d total %.6f\n", n, total);
  return 0;
}
