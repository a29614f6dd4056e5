/* #if 0 blocks may hold anything: unbalanced braces and parentheses, and
 * directives. They are skipped. (Unbalanced quotes: hazard_if0_quotes.cpp.) */
#include <stdio.h>

void skipped(int n, int *v)
{
#if 0
  { { an open brace, and a directive:
  #pragma omp parallel
  {
#endif
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
#if 0
  {
#elif 0
    ((
#else
    v[i] = i;
#endif
#if (0)
  #pragma omp barrier
  } } ]
#endif
  printf("%d\n", v[0]);
}
