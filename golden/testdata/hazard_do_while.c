/* do/while and while loops around and inside constructs. */
#include <stdio.h>

int iterate(int n, double *a)
{
  int steps = 0;
  do
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] *= 0.5;
  while (++steps < 3);
  while (steps-- > 0)
    #pragma omp parallel
    {
      #pragma omp single
      do {
        a[0] += 1.0;
      } while (a[0] < 10.0);
    }
  #pragma omp parallel
  do
    printf("once\n");
  while (0);
  return steps;
}
