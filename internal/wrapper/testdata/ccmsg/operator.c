/* Directives written as _Pragma operators, mid-line. */
int operator(int n, int *a)
{
  int s = 0;
  _Pragma("omp parallel")
  {
    int x = 0; _Pragma("omp task private(nosuch)") x++;
    _Pragma("omp for schedule(bogus)") for (int i = 0; i < n; i++) a[i] = x;
  }
  return s;
}
