// OpenMP directives in C++ attribute syntax are instrumented like
// #pragma omp: each attribute, or each directive of an omp::sequence,
// becomes the directive's code on the same lines. Ordinary C++
// attributes, and attributes holding only declarative directives, are
// left alone.
#include <cstdio>

[[omp::directive(declare simd)]] int twice(int x);
[[nodiscard, omp::directive(declare simd uniform(y))]] int add(int x, int y);

[[nodiscard]] int attrs(int n, int *a)
{
  [[omp::directive(parallel for)]]
  for (int i = 0; i < n; i++)
    a[i] = i;
  [[omp::sequence(directive(parallel), directive(for))]]
  for (int i = 0; i < n; i++)
    a[i] += i;
  [[ omp :: sequence ( omp::directive ( parallel num_threads(2) ) ,
                       sequence(directive(single)) ) ]]
  std::printf("%d\n", a[0]);
  [[using omp: directive(parallel)]]
  {
    [[maybe_unused]] int unused = 0;
    [[omp::directive(barrier)]];
    [[likely]] if (n > 0)
      [[omp::directive(critical(print))]]
      std::printf("%d\n", a[0]);
    [[omp::directive(sections)]]
    {
      [[omp::directive(section)]]
      a[0]++;
      [[omp::directive(section)]]
      a[1]++;
    }
  }
  [[omp::directive(parallel), likely]] /* WARNING "directive in a C\+\+ attribute together with other attributes passed through" */
  { a[0]++; }
  return a[0];
}
