/* Loops whose iterations each spin for a known time (ITER_MS), so that
 * every chunk's time is known: k iterations take k * ITER_MS. Strip-mined
 * (static, k and dynamic, k) and hooked (static, k with lastprivate). */
#include <omp.h>
#include <stdio.h>

#define ITER_MS 2.0

static void spin(double ms)
{
  double t0 = omp_get_wtime();
  while ((omp_get_wtime() - t0) * 1e3 < ms)
    ;
}

int main(void)
{
  int last = 0, j;
  #pragma omp parallel
  {
    #pragma omp for schedule(static, 3) /* loop: static3 12 */
    for (int i = 0; i < 12; i++)
      spin(ITER_MS);
    #pragma omp for schedule(dynamic, 2) /* loop: dynamic2 24 */
    for (int i = 0; i < 24; i++)
      spin(ITER_MS);
    #pragma omp for schedule(static, 2) lastprivate(j) /* loop: hooked2 12 */
    for (j = 0; j < 12; j++)
      spin(ITER_MS);
    #pragma omp single
    last = j;
  }
  printf("last %d\n", last);
  return 0;
}
