/* A histogram of a pseudo-random sequence, built with tasks over blocks
 * and merged with atomics. */
#include <stdio.h>
#include <stdlib.h>

#define BINS 16
#define BLOCK 10000

static unsigned next(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

int main(int argc, char **argv)
{
  int blocks = argc > 1 ? atoi(argv[1]) : 64;
  long hist[BINS] = {0};
  #pragma omp parallel
  #pragma omp single
  for (int b = 0; b < blocks; b++) {
    #pragma omp task firstprivate(b) shared(hist)
    {
      long local[BINS] = {0};
      unsigned seed = (unsigned)b + 1;
      for (int i = 0; i < BLOCK; i++)
        local[next(&seed) % BINS]++;
      for (int k = 0; k < BINS; k++) {
        #pragma omp atomic
        hist[k] += local[k];
      }
    }
  }
  for (int k = 0; k < BINS; k++)
    printf("%2d %ld\n", k, hist[k]);
  return 0;
}
