/* taskloop and taskloop simd with grainsize, num_tasks and nogroup. */
void scale(double *a, int n, double f)
{
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskloop grainsize(64)
    for (int i = 0; i < n; i++)
      a[i] *= f;
    #pragma omp taskloop num_tasks(8) nogroup
    for (int i = 0; i < n; i++) {
      a[i] += 1.0;
    }
    #pragma omp taskwait
    #pragma omp taskloop simd grainsize(16) simdlen(4)
    for (int i = 0; i < n; i++)
      a[i] -= f;
    #pragma omp taskloop collapse(2) untied /* NOTE "1 'untied' clause removed so that task identities stay exact" */
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < n / 4; j++)
        a[i * (n / 4) + j] *= 2.0;
  }
}

/* Loop variables declared outside the header: the compiler checks their
 * type, and the runtime numbers the iterations where it is an integer. */
void outside(double *a, int n)
{
  int i;
  char *p;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskloop grainsize(8)
    for (i = 0; i < n; i++)
      a[i] += 1.0;
    #pragma omp taskloop num_tasks(2)
    for (p = (char *)a; p < (char *)(a + n); p += 8)
      *p = 0;
  }
}
