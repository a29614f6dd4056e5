/* An unknown OpenMP directive is passed through with a warning, and the
 * rest of the file is instrumented. */
void unknown(int n, double *a)
{
  #pragma omp parallel
  {
    #pragma omp frobnicate all /* WARNING "unknown OpenMP directive 'frobnicate all' passed through unchanged" */
    #pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = i;
  }
  #pragma omp /* WARNING "unknown OpenMP directive '\(none\)'" */
  #pragma omp declare induction(step : int) inductor(omp_var = omp_var + omp_step) collector(omp_step * omp_idx) /* WARNING "unknown OpenMP directive 'declare induction' passed" */
  #pragma omp interchange permutation(2, 1) /* WARNING "unknown OpenMP directive 'interchange' passed" */
  #pragma pomp inst shout /* WARNING "unknown POMP directive 'inst shout' passed through unchanged" */
}
