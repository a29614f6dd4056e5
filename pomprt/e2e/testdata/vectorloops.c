/* Loops that compilers vectorize at -O3, each under one schedule. With
 * --chunks, the counting loops (no schedule clause, schedule(static))
 * stay vectorized; the loop whose body begins with a chunk hook
 * (schedule(dynamic, 128)) does not. */
void counted(double *restrict a, const double *restrict b, int n)
{
  #pragma omp for /* vector: counted */
  for (int i = 0; i < n; i++)
    a[i] += 2 * b[i];
}

void counted_static(float *restrict a, const float *restrict b, int n)
{
  #pragma omp for schedule(static) nowait /* vector: counted */
  for (int i = 0; i < n; i++)
    a[i] = a[i] * b[i] + 1;
}

void hooked(double *restrict a, const double *restrict b, int n)
{
  #pragma omp for schedule(dynamic, 128) /* vector: hooked */
  for (int i = 0; i < n; i++)
    a[i] += 2 * b[i];
}
