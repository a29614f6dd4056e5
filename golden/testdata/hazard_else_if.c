/* Constructs in if / else if / else chains, braced and unbraced. */
#include <stdio.h>

void chains(int mode, int n, double *a)
{
  if (mode == 0)
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = 0.0;
  else if (mode == 1)
    #pragma omp parallel
    printf("one\n");
  else if (mode == 2) {
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = 2.0;
  } else
    #pragma omp parallel
    if (n > 0)
      printf("positive\n");
    else
      printf("empty\n");
  #pragma omp parallel
  {
    if (mode)
      #pragma omp single
      a[0] = 1.0;
    else if (n)
      #pragma omp master
      a[0] = 2.0;
    else
      #pragma omp critical
      a[0] = 3.0;
  }
}
