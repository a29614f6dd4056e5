/* Directives continued over several lines with backslash-newline; the
 * instrumented code keeps every line number. */
#include <stdio.h>

double continued(int n, const double *a)
{
  double s = 0.0, m = 0.0;
  #pragma omp parallel \
      default(shared) \
      num_threads(4) \
      if(n > 1000)
  {
    #pragma omp for \
        schedule(dynamic, \
                 16) \
        reduction(+: s) \
        nowait
    for (int i = 0; i < n; i++)
      s += a[i];
    #pragma omp critical \
        (maximum)
    if (s > m)
      m = s;
  }
  #pragma omp parallel for \
    reduction(max: m)
  for (int i = 0; i < n; i++)
    m = a[i] > m ? a[i] : m;
  printf("%f %f\n", s, m);
  return s;
}
