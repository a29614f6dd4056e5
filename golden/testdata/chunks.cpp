// gopari: --chunks
/* --chunks in C++: iterators, auto, and a variable declared outside. */
#include <vector>

void loops(std::vector<double> &v, int n)
{
  #pragma omp parallel
  {
    #pragma omp for schedule(dynamic, 8)
    for (std::vector<double>::iterator it = v.begin(); it != v.end(); ++it)
      *it += 1;
    #pragma omp for
    for (auto i = 0; i < n; i++)
      v[i] *= 2;
    long k;
    #pragma omp for schedule(guided, 2)
    for (k = n - 1; k >= 0; k--)
      v[k] -= 1;
    #pragma omp for /* NOTE "range-based" */
    for (double &x : v)
      x = 0;
  }
}
