/* CRLF line endings: the output keeps them, also in the code gopari adds. */
#include <stdio.h>

void crlf(int n, double *a)
{
  #pragma omp parallel for \
      schedule(static)
  for (int i = 0; i < n; i++)
    a[i] = i;
  #pragma omp parallel
  {
#ifdef _OPENMP
    #pragma omp single
#endif
    printf("%d\n", n); // a comment \
    continued
  }
}
