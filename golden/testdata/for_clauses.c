/* Loop constructs: every schedule kind and the clauses of 'for'. */
#include <omp.h>

double dot(int n, const double *x, const double *y, double *z)
{
  double s = 0.0;
  int last = -1, j = 0;
  #pragma omp parallel
  {
    #pragma omp for schedule(static, 8)
    for (int i = 0; i < n; i++)
      z[i] = x[i];
    #pragma omp for schedule(dynamic)
    for (int i = 0; i < n; i++)
      z[i] += y[i];
    #pragma omp for schedule(guided, 2) nowait
    for (int i = 0; i < n; i++)
      z[i] *= 0.5;
    #pragma omp for schedule(auto) reduction(+: s)
    for (int i = 0; i < n; i++)
      s += x[i] * y[i];
    #pragma omp for schedule(runtime) lastprivate(last)
    for (int i = 0; i < n; i++)
      last = i;
    #pragma omp for schedule(monotonic: static) linear(j: 2)
    for (int i = 0; i < n; i++) {
      z[i] = j;
      j += 2;
    }
    #pragma omp for schedule(nonmonotonic: dynamic, 16) collapse(2) nowait
    for (int a = 0; a < 8; a++)
      for (int b = 0; b < n / 8; b++)
        z[a * (n / 8) + b] += 1.0;
    #pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < n; i++) {
      #pragma omp ordered
      { z[i] += s; }
    }
    #pragma omp for order(concurrent)
    for (int i = 0; i < n; i++)
      z[i] -= 1.0;
  }
  return s + last + j;
}
