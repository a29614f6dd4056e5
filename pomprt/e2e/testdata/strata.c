/* Tasks whose execution times the program knows: one thread creates n
 * tasks, the first 1,000 of which spin 1 µs and the others 0.25 µs, and
 * each task measures itself. The runtime times the first 1,000 instances
 * of a region at a place for certain, then samples one in EVERY (64, as
 * the runtime's SAMPLE_EVERY: the test checks the profile says so) by
 * creation count (the 1,024th, 1,088th, ...), each standing for the instances
 * that were not timed: the program applies the same rule to its own
 * measurements, so that the runtime's estimate can be checked against it
 * whatever preemption did to the samples. An estimate that scaled every
 * timed instance to all would be twice the truth. Prints the number of
 * tasks, the total of their own measurements and that estimate, in
 * seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define EVERY 64

static double *took;

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  took = calloc((size_t)n, sizeof *took);
  #pragma omp parallel
  #pragma omp single
  {
    for (int i = 0; i < n; i++) {
      #pragma omp task firstprivate(i)
      {
        double t0 = omp_get_wtime();
        spin(i < 1000 ? 1e-6 : 0.25e-6);
        took[i] = omp_get_wtime() - t0;
      }
    }
    #pragma omp taskwait
  }
  double total = 0, certain = 0, sampled = 0;
  int samples = 0;
  for (int i = 0; i < n; i++) {
    total += took[i];
    if (i < 1000) {
      certain += took[i];
    } else if ((i + 1) % EVERY == 0) {
      sampled += took[i];
      samples++;
    }
  }
  double estimate = certain + (samples ? sampled * (double)(n - 1000) / samples : 0);
  printf("tasks %d total %.6f estimate %.6f\n", n, total, estimate);
  return 0;
}
