/* single: plain, nowait and copyprivate. */
#include <stdio.h>
#include <omp.h>

int broadcast(int n)
{
  int seed = 0, total = 0;
  #pragma omp parallel firstprivate(seed) reduction(+: total)
  {
    #pragma omp single
    printf("team of %d\n", omp_get_num_threads());
    #pragma omp single nowait
    {
      printf("no one waits for me\n");
    }
    #pragma omp single copyprivate(seed)
    {
      seed = n * 7;
    }
    total += seed;
  }
  return total;
}
