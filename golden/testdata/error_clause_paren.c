/* An unbalanced parenthesis in a clause. */
void clause(int n, double *a)
{
  #pragma omp parallel for schedule(static, 4 /* ERROR "unbalanced '\(' in clause 'schedule'" */
  for (int i = 0; i < n; i++)
    a[i] = i;
}
