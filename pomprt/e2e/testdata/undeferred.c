/* Tasks that are all undeferred (if(0)), each busy for about 2 ms: the
 * creation of such a task is its creation alone, its execution its own.
 * The program prints how long the tasks ran, as it measured them. */
#include <stdio.h>
#include <omp.h>

static double busy;

int main(void)
{
  #pragma omp parallel
  #pragma omp single
  for (int i = 0; i < 40; i++) {
    #pragma omp task if(0)
    {
      double t = omp_get_wtime();
      while (omp_get_wtime() - t < 0.002)
        ;
      busy += omp_get_wtime() - t;
    }
  }
  printf("tasks 40 busy %.6f\n", busy);
  return 0;
}
