/* Loop schedules after the EPCC schedbench method (Bull, "Measuring
 * synchronisation and scheduling overheads in OpenMP", EWOMP 1999): a
 * loop of ITERS iterations per thread, each a delay of about DELAY
 * microseconds, under each schedule, timed over repetitions; the time per
 * iteration against the loop's ideal (the delay) is the schedule's cost.
 * make bench builds it with -O3 and runs it uninstrumented, through gopari cc, and through
 * gopari cc --chunks with and without GOPARI_GRAINS=1. Two more loops
 * show what the chunk hooks do to a loop the compiler vectorizes.
 *
 * Usage: schedule [delay_us] [seconds per schedule] [delay length].
 * Prints one line per schedule: its name, a tab, ns per iteration, and
 * the delay length on standard error. Runs to compare pass the delay
 * length that one calibration found, so that their loops do the same
 * work. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERS 1024 /* per thread */
#define VECN 65536

static int delaylength;
static double va[VECN], vb[VECN];

/* EPCC's delay (common.c of the suite): a chain of float additions that
 * the compiler can neither remove nor vectorize, in a function of its own
 * as in the suite, where it lives in another file. (A volatile int
 * counter instead runs at the speed of the CPU's store forwarding, which
 * on recent Xeons is much faster except after an instruction that drains
 * the pipeline, as a clock read does: it made any instrumentation look
 * twice as costly as on real work.) */
static __attribute__((noinline)) void delay(int n)
{
  float a = 0.;
  for (int i = 0; i < n; i++)
    a += i;
  if (a < 0)
    printf("%f\n", a);
}

static void calibrate(double us)
{
  delaylength = 1000;
  for (;;) {
    double t0 = omp_get_wtime();
    for (int r = 0; r < 100; r++)
      delay(delaylength);
    double per = (omp_get_wtime() - t0) / 100 * 1e6;
    if (per > us * 0.9 && per < us * 1.1)
      return;
    delaylength = (int)(delaylength * us / per) + 1;
    if (per < 1e-3)
      delaylength *= 10;
  }
}

/* run times reps executions of the loop under schedule kind (0 static,
 * 1 dynamic, 2 guided, 3 static without a chunk size) with chunk size k. */
static double run(int kind, int k, int reps)
{
  int n = ITERS * omp_get_max_threads();
  double t0 = omp_get_wtime();
  #pragma omp parallel
  for (int r = 0; r < reps; r++) {
    switch (kind) {
    case 0:
      #pragma omp for schedule(static, k)
      for (int i = 0; i < n; i++)
        delay(delaylength);
      break;
    case 1:
      #pragma omp for schedule(dynamic, k)
      for (int i = 0; i < n; i++)
        delay(delaylength);
      break;
    case 2:
      #pragma omp for schedule(guided, k)
      for (int i = 0; i < n; i++)
        delay(delaylength);
      break;
    default:
      #pragma omp for schedule(static)
      for (int i = 0; i < n; i++)
        delay(delaylength);
    }
  }
  return (omp_get_wtime() - t0) * 1e9 / ((double)reps * ITERS);
}

/* vector times a loop that compilers vectorize, static or guided, 128:
 * with --chunks, the first stays vectorized, the second does not. */
static double vector(int guided, int reps)
{
  double t0 = omp_get_wtime();
  #pragma omp parallel
  for (int r = 0; r < reps; r++) {
    if (guided) {
      #pragma omp for schedule(guided, 128)
      for (int i = 0; i < VECN; i++)
        va[i] += 2 * vb[i];
    } else {
      #pragma omp for schedule(static)
      for (int i = 0; i < VECN; i++)
        va[i] += 2 * vb[i];
    }
  }
  return (omp_get_wtime() - t0) * 1e9 / ((double)reps * VECN);
}

int main(int argc, char **argv)
{
  double us = argc > 1 ? atof(argv[1]) : 0.1, seconds = argc > 2 ? atof(argv[2]) : 0.05;
  if (argc > 3)
    delaylength = atoi(argv[3]);
  else
    calibrate(us);
  static const char *names[] = {"static", "dynamic", "guided"};
  /* Repetitions for about the time asked, from the ideal time. */
  int reps = (int)(seconds * 1e6 / (us * ITERS)) + 1;
  printf("static\t%.2f\n", run(3, 0, reps));
  for (int kind = 0; kind < 3; kind++) {
    static const int ks[] = {1, 16, 128};
    for (int j = 0; j < 3; j++)
      printf("%s,%d\t%.2f\n", names[kind], ks[j], run(kind, ks[j], reps));
  }
  int vreps = (int)(seconds * 1e9 / (VECN * 1.0)) + 1;
  printf("vector static\t%.3f\n", vector(0, vreps));
  printf("vector guided,128\t%.3f\n", vector(1, vreps));
  fprintf(stderr, "delay %d for %.2f us\n", delaylength, us);
  return (int)(va[1] < 0);
}
