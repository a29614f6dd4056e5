/* Three levels of nested parallelism, 2 x 2 x 2 threads, with tasks and
 * worksharing at the innermost level. */
#include <stdio.h>
#include <omp.h>

int main(void)
{
  int seen[8] = {0};
  long work = 0;
  omp_set_max_active_levels(3);
  #pragma omp parallel num_threads(2) shared(seen)
  {
    int a = omp_get_thread_num();
    #pragma omp parallel num_threads(2) shared(seen) firstprivate(a)
    {
      int b = omp_get_thread_num();
      #pragma omp parallel num_threads(2) shared(seen) firstprivate(a, b)
      {
        int c = omp_get_thread_num();
        #pragma omp atomic
        seen[a * 4 + b * 2 + c] += 1;
        #pragma omp for reduction(+: work)
        for (int i = 0; i < 100; i++)
          work += i;
        #pragma omp single
        {
          #pragma omp task
          {
            #pragma omp atomic
            work += 1;
          }
        }
      }
    }
  }
  for (int i = 0; i < 8; i++)
    printf("%d ", seen[i]);
  printf("work %ld\n", work);
  return 0;
}
