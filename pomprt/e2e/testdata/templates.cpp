// C++: lambdas, templates and the standard library around OpenMP.
#include <cstdio>
#include <numeric>
#include <vector>
#include <omp.h>

template <typename T>
T parallel_sum(const std::vector<T> &v)
{
  T sum = T();
  #pragma omp parallel for reduction(+: sum)
  for (std::size_t i = 0; i < v.size(); i++)
    sum += v[i];
  return sum;
}

struct Counter {
  long n = 0;
  void bump() {
    #pragma omp atomic
    n++;
  }
};

int main()
{
  std::vector<long> v(10000);
  std::iota(v.begin(), v.end(), 1);
  Counter c;
  auto work = [&](int k) {
    #pragma omp task firstprivate(k) shared(c)
    {
      for (int i = 0; i < k; i++)
        c.bump();
    }
  };
  #pragma omp parallel
  #pragma omp single
  {
    for (int k = 1; k <= 10; k++)
      work(k);
    #pragma omp taskwait
  }
  std::vector<double> d(1000, 0.5);
  std::printf("%ld %.1f %ld\n", parallel_sum(v), parallel_sum(d), c.n);
  try {
    #pragma omp parallel num_threads(2)
    {
      #pragma omp critical
      c.n += 0;
    }
    throw 1;
  } catch (int e) {
    std::printf("caught %d\n", e);
  }
  return 0;
}
