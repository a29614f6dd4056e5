/* Nested parallelism: an outer team of two threads, each forking an
 * inner team that sums its half of an array. */
#include <stdio.h>
#include <omp.h>

#define N 1000000

static double a[N];

int main(void)
{
  double half[2] = {0.0, 0.0};
  for (int i = 0; i < N; i++)
    a[i] = (i % 7) * 0.5;
  omp_set_max_active_levels(2);
  #pragma omp parallel num_threads(2)
  {
    int h = omp_get_thread_num();
    double s = 0.0;
    #pragma omp parallel for num_threads(2) reduction(+: s)
    for (int i = h * (N / 2); i < (h + 1) * (N / 2); i++)
      s += a[i];
    half[h] = s;
  }
  printf("halves %.1f %.1f, total %.1f\n", half[0], half[1], half[0] + half[1]);
  return 0;
}
