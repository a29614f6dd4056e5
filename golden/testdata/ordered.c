/* ordered: the block form, ordered threads, and the standalone
 * depend(sink)/depend(source) form inside a loop with ordered(n). */
#include <stdio.h>

void ordered_forms(int n, double a[n][n])
{
  #pragma omp parallel
  {
    #pragma omp for ordered schedule(dynamic)
    for (int i = 0; i < n; i++) {
      #pragma omp ordered
      printf("%d\n", i);
    }
    #pragma omp for ordered
    for (int i = 0; i < n; i++) {
      #pragma omp ordered threads
      {
        a[i][0] = i;
      }
    }
    #pragma omp for ordered(2)
    for (int i = 1; i < n; i++)
      for (int j = 1; j < n; j++) {
        #pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
        a[i][j] = a[i - 1][j] + a[i][j - 1];
        #pragma omp ordered depend(source)
      }
  }
}
