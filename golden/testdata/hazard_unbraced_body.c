/* A construct as the unbraced body of if, for and while, and constructs
 * whose block is a single unbraced statement. */
#include <stdio.h>

void unbraced(int n, double *a)
{
  if (n > 100)
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = 1.0;
  for (int r = 0; r < 2; r++)
    #pragma omp parallel
    #pragma omp single
    printf("round %d\n", r);
  while (n-- > 98)
    #pragma omp parallel num_threads(2)
    #pragma omp critical
    a[0] += 1.0;
  #pragma omp parallel
  for (int i = 0; i < 2; i++)
    #pragma omp task
    a[i] = 0.0;
  #pragma omp parallel
  if (n)
    #pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = 2.0;
}
