/* #ifdef _OPENMP around directives, and directives that only exist in one
 * branch of a conditional. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int threads(void)
{
  int n = 1;
#ifdef _OPENMP
  #pragma omp parallel
#endif
  {
#ifdef _OPENMP
    #pragma omp single
    n = omp_get_num_threads();
#endif
  }
#ifdef _OPENMP
  #pragma omp parallel for reduction(+: n)
#else
  /* serial */
#endif
  for (int i = 0; i < 4; i++)
    n += i;
#if defined(_OPENMP) && _OPENMP >= 201511
  #pragma omp taskwait
#endif
  return n;
}
