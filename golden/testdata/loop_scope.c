/* loop with bind, and scope. Nothing inside a loop region is
 * instrumented. */
void smooth(int n, double *a, double *b)
{
  double sum = 0.0;
  #pragma omp parallel
  {
    #pragma omp loop bind(parallel)
    for (int i = 1; i < n - 1; i++)
      b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
    #pragma omp loop bind(thread) private(sum)
    for (int i = 0; i < n; i++) {
      sum = b[i];
      a[i] = sum;
    }
    #pragma omp loop
    for (int i = 0; i < n; i++)
      #pragma omp simd
      for (int j = 0; j < 2; j++)
        b[i] += j;
    #pragma omp scope reduction(+: sum)
    {
      sum += 1.0;
    }
    #pragma omp scope private(sum) nowait
    sum = 0.0;
  }
  a[0] = sum;
}
