/* Lorenz et al.'s tiny-task program (IWOMP 2010): each thread creates n tasks that each
 * increment a counter, then waits for them. */
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
