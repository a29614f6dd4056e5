/* The seed's tiny-task program: each thread creates n tasks that each
 * increment a counter, then waits for them. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long total = 0;
  #pragma omp parallel reduction(+: total)
  {
    long count = 0;
    for (long i = 0; i < n; i++) {
      #pragma omp task shared(count)
      {
        #pragma omp atomic
        count++;
      }
    }
    #pragma omp taskwait
    total += count;
  }
  printf("%ld\n", total / n);
  return 0;
}
