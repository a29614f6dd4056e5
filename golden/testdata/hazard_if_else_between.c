/* Conditional compilation between a directive and its loop: the code
 * that opens the construct goes before the #if, and every branch keeps
 * its own loop. */
#include <stdio.h>

void branches(int n, double *a)
{
  #pragma omp parallel for
#if defined(USE_REVERSE)
  for (int i = n - 1; i >= 0; i--)
#else
  for (int i = 0; i < n; i++)
#endif
    a[i] = i;
  #pragma omp parallel
  {
    #pragma omp for schedule(static)
#ifdef WIDE
    for (int i = 0; i < n; i += 2)
#elif defined(NARROW)
    for (int i = 0; i < n; i += 4)
#else
    for (int i = 0; i < n; i++)
#endif
    {
      a[i] *= 2.0;
    }
  }
#if 1
  #pragma omp parallel
#endif
  printf("%f\n", a[0]);
}
