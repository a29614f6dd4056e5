/* Runs until a signal ends it. With an argument, it handles SIGINT
 * itself: the handler only sets a flag, and the main loop exits with
 * status 7 when it sees it (exit() is not async-signal-safe). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>

static volatile sig_atomic_t stop;

static void own(int sig)
{
  (void)sig;
  stop = 1;
}

int main(int argc, char **argv)
{
  long n = 0;
  if (argc > 1)
    signal(SIGINT, own);
  for (long round = 0;; round++) {
    #pragma omp parallel
    {
      #pragma omp for reduction(+: n)
      for (int i = 0; i < 1000; i++)
        n += i;
      #pragma omp single
      {
        #pragma omp task
        n++;
      }
    }
    if (stop)
      exit(7);
    if (round == 100) {
      printf("running\n");
      fflush(stdout);
    }
  }
  return (int)n;
}
