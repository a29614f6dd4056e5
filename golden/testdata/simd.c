/* simd and for simd: only the loop construct is instrumented, nothing
 * inside the simd region is. */
void axpy(int n, float a, const float *restrict x, float *restrict y)
{
  int k = 0;
  #pragma omp simd safelen(8) aligned(x, y: 16)
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
  float s = 0.0f;
  #pragma omp simd reduction(+: s) simdlen(4)
  for (int i = 0; i < n; i++) {
    #pragma omp ordered simd
    s += y[i];
  }
  #pragma omp parallel
  {
    #pragma omp for simd schedule(simd: static) linear(k: 1)
    for (int i = 0; i < n; i++) {
      y[i] = a * x[i] + s + k;
      k++;
    }
    #pragma omp for simd collapse(2) nowait
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < n / 4; j++)
        y[i * (n / 4) + j] *= 0.5f;
  }
}
