/* master and masked, with and without filter. */
#include <stdio.h>
#include <omp.h>

void report(int step)
{
  #pragma omp parallel
  {
    #pragma omp master
    printf("step %d\n", step);
    #pragma omp masked
    {
      printf("masked by thread %d\n", omp_get_thread_num());
    }
    #pragma omp masked filter(omp_get_num_threads() - 1)
    printf("last thread\n");
    #pragma omp barrier
  }
}
