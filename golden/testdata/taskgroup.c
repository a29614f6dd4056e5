/* taskgroup with task_reduction, and tasks with in_reduction. */
#include <stdio.h>

long sum_list(const int *v, int n)
{
  long sum = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskgroup
    {
      #pragma omp task
      printf("first\n");
    }
    #pragma omp taskgroup task_reduction(+: sum)
    {
      for (int i = 0; i < n; i++) {
        #pragma omp task in_reduction(+: sum) firstprivate(i)
        sum += v[i];
      }
    }
  }
  return sum;
}
