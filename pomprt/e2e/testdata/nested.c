/* Two levels of nested parallelism, 2 x 2 threads. */
#include <stdio.h>
#include <omp.h>

int main(void)
{
  int seen[4] = {0, 0, 0, 0};
  omp_set_max_active_levels(2);
  #pragma omp parallel num_threads(2) shared(seen)
  {
    int outer = omp_get_thread_num();
    #pragma omp parallel num_threads(2) shared(seen) firstprivate(outer)
    {
      int inner = omp_get_thread_num();
      #pragma omp atomic
      seen[outer * 2 + inner] += 1;
      #pragma omp barrier
    }
  }
  printf("%d %d %d %d\n", seen[0], seen[1], seen[2], seen[3]);
  return 0;
}
