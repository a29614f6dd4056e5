// An #if 0 block with unbalanced quotes, braces and directives.
#include <cstdio>

void skipped(int n, int *v)
{
#if 0
  This isn't C++: an unbalanced ' quote and a " quote,
  { { an open brace, and a directive:
  #pragma omp parallel
  {
#endif
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] = i;
#if false
  } } " R"(
#pragma omp barrier
#endif
  std::printf("%d\n", v[0]);
}
