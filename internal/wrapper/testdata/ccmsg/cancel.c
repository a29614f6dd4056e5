/* Cancellation: the handlers that end gopari's regions raise no warning
 * of their own (clang's -Wunused-variable once did). */
int cancel(int n, int *a)
{
  int found = -1;
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < n; i++) {
      if (a[i] == 0) {
        found = i;
        #pragma omp cancel for
      }
    }
    int   unused_after;
  }
  return found;
}
