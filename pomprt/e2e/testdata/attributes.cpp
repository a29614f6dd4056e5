// OpenMP directives in C++ attribute syntax (issue 10): the regions, their
// visits and the sums are known by construction for a team of T threads.
#include <cstdio>

int main()
{
  int n = 0, s = 0, t = 0, u = 0;
  [[omp::directive(parallel)]]
  {
    [[omp::directive(atomic)]] n++;
    [[omp::directive(barrier)]];
    [[omp::directive(single)]]
    { s += 1; }
  }
  [[omp::sequence(directive(parallel num_threads(3)), directive(for reduction(+: s)))]]
  for (int i = 0; i < 1000; i++)
    s += i;
  [[using omp: directive(parallel num_threads(2))]]
  {
    [[omp::directive(sections)]]
    {
      [[omp::directive(section)]]
      { [[omp::directive(critical)]] t += 10; }
      [[omp::directive(section)]]
      { [[omp::directive(critical)]] t += 100; }
    }
    [[omp::sequence(directive(masked), directive(taskgroup))]]
    {
      for (int i = 0; i < 5; i++)
        [[omp::directive(task shared(u))]]
        { [[omp::directive(atomic)]] u++; }
    }
  }
  std::printf("%d %d %d %d\n", n, s, t, u);
  return 0;
}
