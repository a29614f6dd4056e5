// flags: -Wshadow
/* Nested constructs under -Wshadow: gopari's variables hide none of each
 * other's; the user's own shadowing is reported as it is. */
int shadow(int n, int *a)
{
  int s = 0;
  #pragma omp parallel
  {
    #pragma omp for reduction(+: s)
    for (int i = 0; i < n; i++)
      s += a[i];
    #pragma omp single
    {
      #pragma omp task
      {
        #pragma omp task
        a[0] = s;
        #pragma omp taskwait
      }
      #pragma omp parallel num_threads(2)
      {
        int s = 1;
        a[1] = s;
      }
    }
    #pragma omp barrier
  }
  return s;
}
