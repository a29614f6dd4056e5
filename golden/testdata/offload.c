/* target, teams and distribute constructs and everything inside them are
 * passed through untouched, with one note per file. */
#include <stdio.h>

void saxpy(int n, float a, float *x, float *y)
{
  #pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n]) /* NOTE "3 target, teams or distribute construct\(s\) passed through" */
  {
    #pragma omp target teams distribute parallel for simd
    for (int i = 0; i < n; i++)
      y[i] += a * x[i];
    #pragma omp target update from(y[0:n])
  }
  #pragma omp target map(tofrom: y[0:n])
  #pragma omp teams num_teams(2)
  {
    #pragma omp distribute
    for (int i = 0; i < n; i++) {
      #pragma omp parallel
      y[i] *= 2.0f;
    }
  }
  #pragma omp parallel num_threads(2)
  {
    #pragma omp target map(from: x[0:n])
    {
      #pragma omp parallel for
      for (int i = 0; i < n; i++)
        x[i] = 0.0f;
    }
    #pragma omp barrier
  }
  printf("%f\n", y[0]);
}
