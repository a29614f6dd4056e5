/* _Pragma("omp ...") written directly in code is instrumented like
 * #pragma omp: at the start of a line, in the middle of a line and as the
 * body of an if. Inside a macro definition it is left alone. */
#include <stdio.h>

#define PARALLEL_FOR _Pragma("omp parallel for") /* NOTE "_Pragma\(\"omp …\"\) in macro definitions not instrumented" */

void ops(int n, double *a)
{
  _Pragma("omp parallel")
  {
    _Pragma("omp for schedule(static)") for (int i = 0; i < n; i++) a[i] = i;
    _Pragma("omp single") { printf("single\n"); }
    int t = 0; _Pragma("omp atomic") t++;
    if (n > 1) _Pragma("omp masked") printf("%d\n", n);
    if (n > 2)
      _Pragma("omp critical (print)")
      printf("%d\n", t);
  }
  _Pragma("omp task") a[0] = 1.0; _Pragma("omp taskwait")
  PARALLEL_FOR
  for (int i = 0; i < n; i++)
    a[i] += 1.0;
  _Pragma ( "omp parallel num_threads(2) \
if(n > 10)" )
  printf("%s\n", "a continued _Pragma string");
}
