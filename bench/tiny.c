/* The tiny-task benchmark of Lorenz et al. (IWOMP 2010, section 8.1): in a
 * parallel region every thread creates n tasks that each increment a
 * counter, then waits for them. Each task increments the slot of the
 * thread that runs it, so no increment is lost and tasks stay tiny.
 * Usage: tiny [n per thread]. Prints ns/task on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

/* Prints the peak resident memory of this program alone (VmHWM), after
 * everything else at exit, the runtime's profile included. The rusage of
 * a child counts the memory of the process that started it as well. */
__attribute__((destructor)) static void peak(void)
{
  char line[128];
  FILE *f = fopen("/proc/self/status", "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6))
      fprintf(stderr, "peak %ld kB\n", atol(line + 6));
  if (f)
    fclose(f);
}

#define SLOT 16 /* longs per thread: one cache line apart */

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 10000000;
  int threads = omp_get_max_threads();
  long *count = calloc((size_t)threads * SLOT, sizeof *count);
  double t0 = omp_get_wtime();
  #pragma omp parallel shared(count)
  {
    for (long i = 0; i < n; i++) {
      #pragma omp task shared(count)
      count[omp_get_thread_num() * SLOT]++;
    }
    #pragma omp taskwait
  }
  double t1 = omp_get_wtime();
  long total = 0;
  for (int t = 0; t < threads; t++)
    total += count[t * SLOT];
  fprintf(stderr, "%.2f ns/task\n", (t1 - t0) * 1e9 / ((double)n * threads));
  printf("%ld\n", total == n * threads ? 1L : 0L);
  return 0;
}
