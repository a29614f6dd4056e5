// C++: a template, a member function and a lambda, with messages in
// clauses, in blocks and in macros.
#include <vector>

#define IS_NEG(x) ((x) < 0u)

template <typename T>
T sum(const std::vector<T> &v)
{
  T s = T();
  #pragma omp parallel for reduction(+: s)
  for (std::size_t i = 0; i < v.size(); i++)
    s +=   v[i];
  int    unused_in_template;
  return s;
}

struct Grid {
  int n;
  void clear(int *a) {
    #pragma omp parallel for firstprivate(missing_member)
    for (int i = 0; i < n; i++) a[i] = IS_NEG(i);
  }
};

int cxx(std::vector<int> &v, int *a)
{
  auto f = [&](int k) {
    int   r = 0;
    #pragma omp task shared(r)
    r = k +   undeclared_in_lambda;
    #pragma omp taskwait
    return r;
  };
  Grid g{4};
  g.clear(a);
  return sum(v) + f(1);
}
