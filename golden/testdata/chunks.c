// gopari: --chunks
/* --chunks: the hooks of every schedule, of counted and hooked loops, of
 * collapsed nests, and the loops that get none, with the note saying why. */
#include <omp.h>

void loops(int n, double *a, const double *b, long lo, long hi, int k)
{
  int i, j;
  unsigned u;
  double *p;
  #pragma omp parallel
  {
    /* Counted: no schedule clause, or static without a chunk size. */
    #pragma omp for
    for (int x = 0; x < n; x++)
      a[x] += 2 * b[x];
    #pragma omp for schedule(static) nowait
    for (long x = hi; x >= lo; x -= 2)
      a[x] = 0;
    /* Strip-mined: static or dynamic with a chunk size, an integer
     * variable declared in the header, no clause naming iterations. */
    #pragma omp for schedule(monotonic: static, 8) nowait
    for (long x = hi; x > lo; x -= 3)
      a[x] = b[x];
    /* Hooked: a chunk size, dynamic, guided, auto, runtime. */
    #pragma omp for schedule(static, 16)
    for (i = 0; i < n; i++) {
      a[i] = b[i];
    }
    #pragma omp for schedule(nonmonotonic: dynamic, k + 1)
    for (u = 0; u < (unsigned)n; u += 3)
      a[u] = 1;
    #pragma omp for schedule(guided) reduction(+: a[0])
    for (p = a + 1; p < a + n; p++)
      a[0] += *p;
    #pragma omp for schedule(runtime) lastprivate(i)
    for (i = n; i > 0; --i)
      a[i - 1] = i;
    #pragma omp for collapse(2) schedule(dynamic)
    for (i = 0; i < n; i++)
      for (j = 1; j <= n; j += 2)
        a[i] += j;
    #pragma omp for ordered schedule(auto)
    for (i = 0; i < n; i++) {
      #pragma omp ordered
      a[i] += 1;
    }
    /* None. */
    #pragma omp for /* NOTE "no chunk grains for this loop: its loop increment" */
    for (i = 1; i < n; i *= 2)
      a[i] = 0;
    #pragma omp for collapse(2) /* NOTE "not rectangular" */
    for (i = 0; i < n; i++)
      for (j = 0; j < i; j++)
        a[i] += j;
    #pragma omp for ordered(2) /* NOTE "doacross" */
    for (i = 1; i < n; i++)
      for (j = 0; j < n; j++) {
        #pragma omp ordered depend(sink: i - 1, j)
        a[i] += a[i - 1];
        #pragma omp ordered depend(source)
      }
    #pragma omp for simd
    for (i = 0; i < n; i++)
      a[i] += 1;
  }
  #pragma omp parallel for schedule(dynamic, 4) firstprivate(k)
  for (int x = 0; x < n; x++)
    a[x] += k;
}
