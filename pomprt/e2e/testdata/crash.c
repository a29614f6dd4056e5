/* Runs ROUNDS parallel loops, prints the sum, then ends the way the
 * argument says, on the last thread of a team while the others wait in
 * a barrier: segv, bus, fpe, abort, or pipe (every thread writes lines
 * until the reader goes away). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <omp.h>

enum { ROUNDS = 10 };

static volatile int zero, one = 1;

static void crash(const char *how)
{
  if (!strcmp(how, "segv")) {
    *(volatile int *)0 = 1;
  } else if (!strcmp(how, "bus")) {
    FILE *f = tmpfile(); /* empty: touching its mapping faults */
    volatile char *p = f ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fileno(f), 0) : MAP_FAILED;
    if (p != MAP_FAILED)
      zero = p[0];
  } else if (!strcmp(how, "fpe")) {
    zero = one / zero;
  } else if (!strcmp(how, "abort")) {
    abort();
  }
}

int main(int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "segv";
  long n = 0;
  for (int round = 0; round < ROUNDS; round++) {
    #pragma omp parallel reduction(+: n)
    {
      #pragma omp for
      for (int i = 0; i < 100; i++)
        n += i;
    }
  }
  printf("%ld\n", n);
  fflush(stdout);
  #pragma omp parallel
  {
    if (!strcmp(how, "pipe")) {
      for (;;)
        printf("line from %d\n", omp_get_thread_num());
    }
    #pragma omp barrier
    if (omp_get_thread_num() == omp_get_num_threads() - 1)
      crash(how);
    #pragma omp barrier
  }
  return 0;
}
