/* -Wall -Wextra warnings inside macros defined in this file and in a
 * user header, in and around directives. */
#include "macros.h"

#define IS_NEG(x)   ((x) < 0u)
#define SWAP(a, b)  do { int t = a; a = b; b = t; } while (0)
#define NTHREADS 4

int macros(int n, unsigned *v)
{
  int s = 0, r = 1;
  #pragma omp parallel num_threads(NTHREADS)
  {
    UNUSED_LOCAL(local_in_parallel);
    if (IS_NEG(v[0]))
      s++;
    #pragma omp for reduction(+: s)
    for (int i = 0; i < n; i++)
      s += NEGATIVE(v[i]);
  }
  #pragma omp task
  SWAP(s, r);
  return s + header_helper(v[0]);
}
