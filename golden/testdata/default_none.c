/* default(none) on parallel and task: the variables gopari adds are
 * privatized explicitly, so default(none) still compiles. */
#include <stdio.h>

int work(int n, int *v)
{
  int sum = 0;
  #pragma omp parallel default(none) shared(n, v) reduction(+: sum)
  {
    #pragma omp for
    for (int i = 0; i < n; i++)
      sum += v[i];
    #pragma omp single
    {
      #pragma omp task default(none) shared(v) firstprivate(n)
      v[0] = n;
      #pragma omp taskloop default(none) shared(v, n)
      for (int i = 1; i < n; i++)
        v[i] = i;
    }
  }
  #pragma omp parallel for default(none) shared(v) firstprivate(n) reduction(+: sum)
  for (int i = 0; i < n; i++)
    sum += v[i];
  return sum;
}
