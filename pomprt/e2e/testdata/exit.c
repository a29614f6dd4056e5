/* exit() from inside a parallel region: the profile must still be
 * written and the exit status kept. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(void)
{
  #pragma omp parallel num_threads(2)
  {
    #pragma omp barrier
    #pragma omp master
    {
      printf("leaving\n");
      fflush(stdout);
      exit(3);
    }
    #pragma omp barrier
  }
  printf("not reached\n");
  return 0;
}
