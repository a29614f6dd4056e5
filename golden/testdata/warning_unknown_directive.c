/* An unknown OpenMP directive is passed through with a warning, and the
 * rest of the file is instrumented. */
void unknown(int n, double *a)
{
  #pragma omp parallel
  {
    #pragma omp frobnicate all /* WARNING "unknown OpenMP directive 'frobnicate' passed through unchanged" */
    #pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = i;
  }
  #pragma omp /* WARNING "unknown OpenMP directive '\(none\)'" */
  #pragma pomp inst shout /* WARNING "unknown POMP directive 'inst shout' passed through unchanged" */
}
