/* tsc: what one read of the time-stamp counter costs, back to back, as
 * gopari's runtime reads it (rdtsc). Prints "X ns/read" on stderr. */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* a preempted loop counts what it ran */
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
  enum { N = 2000000 };
  unsigned long long sum = 0;
  double t0 = now();
  for (int i = 0; i < N; i++)
    sum += __rdtsc();
  double t1 = now();
  fprintf(stderr, "%.2f ns/read\n", (t1 - t0) * 1e9 / N);
  printf("%llu\n", sum & 1);
  return 0;
}
