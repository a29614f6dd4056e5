/* Does a known amount of work, then kills itself with SIGKILL, as the
 * out-of-memory killer or a batch scheduler would: every thread takes
 * its share of a loop of n iterations per thread (argv[1]) in chunks of
 * 8, then creates n tasks, and once all are done (a barrier), the team's
 * single thread prints the number of tasks run and of loop chunks begun,
 * the wall-clock times (CLOCK_REALTIME, ns) at the end of the loop and
 * just before the kill, flushes, and raises SIGKILL. The runtime never
 * gets to write its profile, nor the block each thread still holds in
 * memory. With a second argument it returns instead, and the profile is
 * written. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>

static long long wall(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 10000;
  long tasks = 0, chunks = 0, sum = 0;
  long long loop_end = 0;
  #pragma omp parallel
  {
    #pragma omp for schedule(dynamic, 8) reduction(+: sum)
    for (long i = 0; i < n * omp_get_num_threads(); i++) {
      if (i % 8 == 0) {
        #pragma omp atomic
        chunks++;
      }
      sum += i;
    }
    #pragma omp single
    loop_end = wall();
    for (long i = 0; i < n; i++) {
      #pragma omp task shared(tasks)
      {
        #pragma omp atomic
        tasks++;
      }
    }
    #pragma omp taskwait
    #pragma omp barrier
    #pragma omp single
    {
      printf("%ld tasks, %ld chunks, sum %ld, loop end %lld, kill %lld\n", tasks, chunks, sum, loop_end, wall());
      fflush(stdout);
      if (argc < 3)
        raise(SIGKILL);
    }
  }
  return 0;
}
