/* master/masked taskloop [simd], also combined with parallel. */
void init(double *a, int n)
{
  #pragma omp parallel
  {
    #pragma omp master taskloop grainsize(32)
    for (int i = 0; i < n; i++)
      a[i] = i;
    #pragma omp master taskloop simd num_tasks(4)
    for (int i = 0; i < n; i++)
      a[i] += 1.0;
    #pragma omp masked taskloop filter(0) nogroup
    for (int i = 0; i < n; i++)
      a[i] *= 2.0;
    #pragma omp barrier
    #pragma omp masked taskloop simd filter(0) grainsize(8)
    for (int i = 0; i < n; i++)
      a[i] -= 1.0;
  }
  #pragma omp parallel master taskloop num_threads(2) shared(a)
  for (int i = 0; i < n; i++)
    a[i] += 0.5;
  #pragma omp parallel master taskloop simd if(n > 100)
  for (int i = 0; i < n; i++)
    a[i] += 0.25;
  #pragma omp parallel masked taskloop filter(0) num_tasks(2)
  for (int i = 0; i < n; i++)
    a[i] += 0.125;
  #pragma omp parallel masked taskloop simd filter(0) simdlen(2)
  for (int i = 0; i < n; i++)
    a[i] += 0.0625;
}
