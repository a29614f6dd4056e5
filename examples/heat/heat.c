/* Heat diffusion on a square plate, Jacobi iteration: each step computes
 * the new temperatures in parallel and the largest change with a max
 * reduction, until the plate settles. Every result is independent of
 * the number of threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 64;
  int steps = argc > 2 ? atoi(argv[2]) : 3000;
  double *t = calloc((size_t)n * n, sizeof *t);
  double *u = calloc((size_t)n * n, sizeof *u);
  if (!t || !u)
    return 1;
  for (int i = 0; i < n; i++)
    t[i] = u[i] = 100.0; /* the hot edge */
  double change = 0.0;
  int step;
  for (step = 0; step < steps; step++) {
    change = 0.0;
    #pragma omp parallel for schedule(static) reduction(max: change)
    for (int i = 1; i < n - 1; i++) {
      for (int j = 1; j < n - 1; j++) {
        double v = 0.25 * (t[(i - 1) * n + j] + t[(i + 1) * n + j] + t[i * n + j - 1] + t[i * n + j + 1]);
        double d = fabs(v - t[i * n + j]);
        if (d > change)
          change = d;
        u[i * n + j] = v;
      }
    }
    double *w = t;
    t = u;
    u = w;
    if (change < 1e-3)
      break;
  }
  double centre = t[(n / 2) * n + n / 2], hottest = 0.0;
  #pragma omp parallel for reduction(max: hottest)
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < n; j++)
      if (t[i * n + j] > hottest)
        hottest = t[i * n + j];
  printf("%d steps, last change %.6f, centre %.6f, hottest inner %.6f\n", step, change, centre, hottest);
  free(t);
  free(u);
  return 0;
}
