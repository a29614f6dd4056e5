/* Runs n tasks (first argument), then lowers its own file-size limit to
 * the second argument, in bytes, with SIGXFSZ ignored, so that every
 * write past it fails as on a full disk, and exits with status 3. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <omp.h>

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 10, done = 0;
  #pragma omp parallel
  #pragma omp single
  for (long i = 0; i < n; i++) {
    #pragma omp task shared(done)
    {
      #pragma omp atomic
      done++;
    }
  }
  printf("%ld\n", done);
  struct rlimit r = {0, 0};
  r.rlim_cur = r.rlim_max = argc > 2 ? (rlim_t)atol(argv[2]) : 100;
  signal(SIGXFSZ, SIG_IGN);
  if (setrlimit(RLIMIT_FSIZE, &r) != 0)
    perror("setrlimit");
  return 3;
}
