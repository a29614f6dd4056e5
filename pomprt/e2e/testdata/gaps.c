/* Thread 0 of the team records much (an atomic per iteration, 16 bytes
 * of stream), the others little. Under a file size limit the stream
 * stops while the others have not written a block yet: their records are
 * counted in profile.json's events.unwritten. Under
 * GOPARI_TRACE_MAX_BYTES each thread's blocks past the budget are
 * dropped, and DROPPED records say so. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long total = 0;
  #pragma omp parallel
  if (omp_get_thread_num() == 0)
    for (long i = 0; i < n; i++) {
      #pragma omp atomic
      total++;
    }
  printf("%ld\n", total);
  return 0;
}
