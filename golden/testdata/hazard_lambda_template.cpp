// Constructs inside lambdas, templates, class members and namespaces;
// braces of initializer lists, lambdas and templates around them.
#include <cstdio>
#include <vector>
#include <functional>

namespace grid {

template <typename T, int N = 4>
struct Field {
  std::vector<T> data = std::vector<T>(N, T{});

  T sum() const
  {
    T s{};
    #pragma omp parallel for reduction(+: s)
    for (int i = 0; i < (int)data.size(); i++)
      s += data[i];
    return s;
  }

  template <typename F>
  void apply(F f)
  {
    #pragma omp parallel for
    for (int i = 0; i < (int)data.size(); i++)
      data[i] = f(data[i]);
  }
};

} // namespace grid

int run()
{
  grid::Field<double> f;
  auto twice = [](double x) { return 2.0 * x; };
  f.apply(twice);
  auto body = [&f](int n) -> int {
    int count = 0;
    #pragma omp parallel reduction(+: count)
    {
      count += n > 0 ? 1 : 0;
      auto inner = [&]() {
        #pragma omp atomic
        count++;
      };
      inner();
    }
    return count + (int)f.sum();
  };
  std::function<int(int)> g = body;
  std::vector<std::vector<int>> nested{{1, 2}, {3, 4}};
  #pragma omp parallel for if(nested.size() > std::vector<int>{1}.size())
  for (std::size_t i = 0; i < nested.size(); i++)
    nested[i].push_back(g(int(i)));
  return g(3);
}
