#include <stdio.h>
#include <omp.h>

int main(void)
{
  int n = 100, sum = 0, a[100];
  #pragma omp parallel num_threads(2) default(none) shared(a, n) reduction(+: sum)
  {
    int me = omp_get_thread_num();
    for (int i = me; i < n; i += omp_get_num_threads())
      a[i] = i;
    sum += me;
  }
  #pragma omp parallel if(n > 10) proc_bind(close)
  #pragma omp parallel num_threads(1)
  printf("nested %d\n", omp_get_level());
  printf("%d %d\n", sum, a[99]);
  return 0;
}
