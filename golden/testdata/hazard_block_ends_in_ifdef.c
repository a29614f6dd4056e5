/* A structured block whose closing brace lies inside an #ifdef: the code
 * that closes the construct goes after the #endif, so it is there in
 * every configuration. */
#include <stdio.h>

void ends_in_ifdef(int n, int *v)
{
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < n; i++)
      v[i] = i;
#ifdef VERBOSE
    printf("verbose\n");
  }
#else
  }
#endif
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
#ifdef DOUBLE
    v[i] *= 2;
#else
    v[i] += 1;
#endif
  #pragma omp single
#if defined(DEBUG)
  {
    printf("debug\n");
#else
  {
#endif
    v[0] = 0;
  }
}
