#include <stdio.h>

void loops(int n, double *a, double *b)
{
  double s = 0.0;
  int last = 0;
  #pragma omp parallel shared(a, b, n)
  {
    #pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      a[i] = i;
    #pragma omp for schedule(dynamic, 4) nowait
    for (int i = 0; i < n; i++) {
      b[i] = a[i] * 2.0;
    }
    #pragma omp for schedule(guided) reduction(+: s) lastprivate(last)
    for (int i = 0; i < n; i++) {
      s += b[i];
      last = i;
    }
    #pragma omp for collapse(2) schedule(runtime)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        a[i * 4 + j] += 1.0;
    #pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < n; i++) {
      #pragma omp ordered
      b[i] += 1.0;
    }
    #pragma omp single copyprivate(s)
    s = s / 2.0;
    #pragma omp single nowait
    { printf("single\n"); }
    #pragma omp sections
    {
      a[0] = 1.0;
      #pragma omp section
      a[1] = 2.0;
      #pragma omp section
      {
        a[2] = 3.0;
      }
    }
    #pragma omp masked filter(1)
    printf("masked\n");
    #pragma omp master
    printf("master %d\n", last);
  }
  printf("%f\n", s);
}
