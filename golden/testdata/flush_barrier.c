/* flush with and without a list, with a memory order; barrier. */
#include <stdio.h>

int flag, data;

void handshake(void)
{
  #pragma omp parallel num_threads(2)
  {
    #pragma omp single nowait
    {
      data = 42;
      #pragma omp flush
      flag = 1;
      #pragma omp flush (flag, data)
    }
    #pragma omp flush acq_rel
    #pragma omp barrier
    printf("%d %d\n", flag, data);
    #pragma omp barrier
  }
}
