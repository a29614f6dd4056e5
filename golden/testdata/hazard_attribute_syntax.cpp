// OpenMP directives in C++ attribute syntax are not instrumented, and
// gopari says so; ordinary C++ attributes are left alone.
#include <cstdio>

[[nodiscard]] int attrs(int n, int *a)
{
  [[omp::directive(parallel for)]] /* WARNING "C\+\+ attribute syntax" */
  for (int i = 0; i < n; i++)
    a[i] = i;
  [[omp::sequence(directive(parallel), directive(for))]] /* WARNING "passed through without instrumentation" */
  for (int i = 0; i < n; i++)
    a[i] += i;
  #pragma omp parallel
  {
    [[maybe_unused]] int unused = 0;
    [[likely]] if (n > 0)
      #pragma omp single
      std::printf("%d\n", a[0]);
  }
  return a[0];
}
