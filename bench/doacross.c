/* A doacross stencil: a 2-D wavefront in which cell (i, j) needs (i-1,
 * j) and (i, j-1), parallelised as a "for ordered(2)" loop with
 * "ordered depend(sink: ...)" before and "ordered depend(source)" after
 * each cell, so that threads proceed along the hyperplanes. Usage:
 * doacross [n [sweeps]]. Prints on stderr the wall time per iteration
 * and the process CPU time per iteration, in ns, and on stdout a
 * checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int sweeps = argc > 2 ? atoi(argv[2]) : 2;
  double *a = malloc(sizeof *a * (size_t)n * n);
  for (long k = 0; k < (long)n * n; k++)
    a[k] = (double)(k % 7);
  double c0 = cpu(), t0 = omp_get_wtime();
  for (int s = 0; s < sweeps; s++) {
    #pragma omp parallel for ordered(2) schedule(static, 1)
    for (int i = 1; i < n; i++)
      for (int j = 1; j < n; j++) {
        #pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
        a[(long)i * n + j] = 0.5 * (a[(long)(i - 1) * n + j] + a[(long)i * n + j - 1]) + 1.0;
        #pragma omp ordered depend(source)
      }
  }
  double t1 = omp_get_wtime(), c1 = cpu();
  double iters = (double)sweeps * (n - 1) * (n - 1);
  double sum = 0;
  for (long k = 0; k < (long)n * n; k++)
    sum += a[k];
  fprintf(stderr, "%.2f ns/iteration\n%.2f cpu-ns/iteration\n", (t1 - t0) * 1e9 / iters, (c1 - c0) * 1e9 / iters);
  printf("checksum %.6e\n", sum);
  free(a);
  return 0;
}
