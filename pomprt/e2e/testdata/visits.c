/* A program of known structure: three parallel regions of four threads,
 * each with a loop, a barrier, a single and a critical section. */
#include <stdio.h>

int main(void)
{
  long sum = 0;
  int singles = 0;
  for (int r = 0; r < 3; r++) {
    #pragma omp parallel num_threads(4) reduction(+: sum)
    {
      #pragma omp for
      for (int i = 0; i < 100; i++)
        sum += i;
      #pragma omp barrier
      #pragma omp single
      singles++;
      #pragma omp critical
      sum += 1;
    }
  }
  printf("%ld %d\n", sum, singles);
  return 0;
}
