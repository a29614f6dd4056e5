/* Combined parallel constructs are split into their leaves, with the
 * clauses distributed as OpenMP 5.2 prescribes. */
#include <stdio.h>
#include <omp.h>

void combined(int n, double *a, double *b)
{
  double s = 0.0;
  int last = 0, k = 0;
  #pragma omp parallel for num_threads(4) schedule(static) reduction(+: s) lastprivate(last)
  for (int i = 0; i < n; i++) {
    s += a[i];
    last = i;
  }
  #pragma omp parallel for simd if(n > 64) linear(k: 1) firstprivate(s)
  for (int i = 0; i < n; i++) {
    b[i] = s + k;
    k++;
  }
  #pragma omp parallel for simd simdlen(8) private(last)
  for (int i = 0; i < n; i++)
    b[i] *= 2.0;
  #pragma omp parallel for private(last) firstprivate(k) allocate(omp_default_mem_alloc: last, k)
  for (int i = 0; i < n; i++) {
    last = i + k;
    b[i] += last;
  }
  #pragma omp parallel sections firstprivate(n)
  {
    a[0] = n;
    #pragma omp section
    b[0] = n;
  }
  #pragma omp parallel master
  {
    printf("master of %d\n", n);
  }
  #pragma omp parallel masked filter(1) num_threads(2)
  printf("masked\n");
  #pragma omp parallel loop collapse(2)
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < n / 4; j++)
      a[i * (n / 4) + j] = 0.0;
  printf("%f %d %d\n", s, last, k);
}
