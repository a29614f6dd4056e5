/* Loops that compilers vectorize at -O3, each under one schedule. With
 * --chunks, the counting loops (no schedule clause, schedule(static)) and
 * the strip-mined ones (schedule(static, k), schedule(dynamic, k)) stay
 * vectorized; a loop whose body begins with a chunk hook (schedule(guided,
 * 128)) does not. */
void counted(double *restrict a, const double *restrict b, int n)
{
  #pragma omp for /* vector: kept */
  for (int i = 0; i < n; i++)
    a[i] += 2 * b[i];
}

void counted_static(float *restrict a, const float *restrict b, int n)
{
  #pragma omp for schedule(static) nowait /* vector: kept */
  for (int i = 0; i < n; i++)
    a[i] = a[i] * b[i] + 1;
}

void strip_static(double *restrict a, const double *restrict b, int n)
{
  #pragma omp for schedule(static, 16) /* vector: kept */
  for (int i = 0; i < n; i++)
    a[i] += 2 * b[i];
}

void strip_dynamic(float *restrict a, const float *restrict b, int n)
{
  #pragma omp for schedule(dynamic, 128) nowait /* vector: kept */
  for (int i = 0; i < n; i++)
    a[i] = a[i] * b[i] + 1;
}

void hooked(double *restrict a, const double *restrict b, int n)
{
  #pragma omp for schedule(guided, 128) /* vector: hooked */
  for (int i = 0; i < n; i++)
    a[i] += 2 * b[i];
}
