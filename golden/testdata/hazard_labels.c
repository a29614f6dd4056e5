/* Labelled statements before and inside constructs. */
#include <stdio.h>

int labels(int n, int *v)
{
  int tries = 0;
again:
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] = i;
  if (++tries < 2)
    goto again;
  #pragma omp parallel
  {
    #pragma omp single
    {
      int k = 0;
    retry:
      if (k++ < 3)
        goto retry;
      printf("%d\n", k);
    }
  }
  #pragma omp parallel
  done: __attribute__((unused)) printf("done\n");
  return tries;
}
