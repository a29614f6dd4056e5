// C++ loops whose chunks are known by construction (--chunks): a vector
// iterator, an auto variable and a variable declared before its loop.
// The tests find each loop by the word after "loop:" on its directive's
// line, and its iteration count after it.
#include <cstdio>
#include <vector>

int main()
{
  std::vector<double> v(300, 1.0);
  long k;
  double sum = 0;
  for (int rep = 0; rep < 2; rep++) {
    #pragma omp parallel
    {
      #pragma omp for schedule(dynamic, 8) // loop: iterator8 300
      for (std::vector<double>::iterator it = v.begin(); it != v.end(); ++it)
        *it += 1;
      #pragma omp for schedule(static, 16) // loop: auto16 300
      for (auto i = 0; i < 300; i++)
        v[i] *= 2;
      #pragma omp for schedule(guided) reduction(+: sum) // loop: outside 300
      for (k = 299; k >= 0; k--)
        sum += v[k];
    }
  }
  std::printf("%g %g\n", sum, v[17]);
  return 0;
}
