/* A structured block whose parentheses do not balance. */
void unbalanced(int n, int *v)
{
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] = (i + 1)) * 2; /* ERROR "unbalanced '\)'" */
}
