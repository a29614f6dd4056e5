/* A user header with a directive: gopari cc instruments it in the
 * preprocessed source, which it then compiles. */
static inline int header_sum(int n, const int *a)
{
  int s = 0;
  #pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s +=   a[i] < 0u;
  return s;
}
