// Range-based for loops as the body of constructs, braced and unbraced.
#include <cstdio>
#include <vector>
#include <map>

double total(const std::vector<double> &v, std::map<int, double> &m)
{
  double s = 0.0;
  #pragma omp parallel for reduction(+: s)
  for (auto x : v)
    s += x;
  #pragma omp parallel
  #pragma omp single
  for (auto &[key, value] : m)
    #pragma omp task firstprivate(key) shared(value)
    value += key;
  #pragma omp parallel for
  for (const double &x : v) {
    std::printf("%f\n", x);
  }
  #pragma omp parallel
  for (int k : {1, 2, 3})
    #pragma omp critical
    s += k;
  return s;
}
