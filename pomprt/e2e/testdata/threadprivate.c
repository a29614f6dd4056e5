/* threadprivate variables and copyin. */
#include <stdio.h>
#include <omp.h>

static int counter = 0;
#pragma omp threadprivate(counter)
static double scale;
#pragma omp threadprivate(scale)

int main(void)
{
  long total = 0;
  counter = 5;
  scale = 2.0;
  #pragma omp parallel copyin(counter, scale) reduction(+: total)
  {
    counter += 1;
    total += (long)(counter * scale);
  }
  printf("per thread %ld\n", total / omp_get_max_threads());
  return 0;
}
