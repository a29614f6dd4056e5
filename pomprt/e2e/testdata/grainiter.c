/* Tasks created in the iterations of worksharing loops, and loop chunks,
 * whose identity is known by construction: a task created in iteration i
 * of a for loop is the same grain at any thread count, in every schedule
 * (static without and with a chunk size, dynamic, guided, a combined
 * parallel for, a collapsed nest), and so is a chunk of static, 4 and
 * dynamic, 4 (iterations 4m to 4m+3); a chunk of a plain static loop
 * holds other iterations at each team size. The work of a key depends on
 * its iteration, and iterations i % 5 == 2 work FACTOR times as much when
 * the team has more than one thread: their deviation is FACTOR.
 *
 * Instrumented (pomp.h defines POMP_H), the program writes to stderr, per
 * task key, the task that ran it (POMP_Get_current_task), the time it
 * measured itself and the CPU time its thread spent meanwhile (less when
 * it was preempted); per iteration of the chunk loops, the same without
 * a task. Both are the truth that gopari grains' lineages and work
 * deviations are checked against. It prints the same to stdout either
 * way. The first argument is the spin's iterations per unit of work. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef POMP_H
#define TASK_ID() ((unsigned long long)POMP_Get_current_task())
#else
#define TASK_ID() 0ull
#endif

#define N 16     /* iterations of each loop */
#define FACTOR 3 /* the work of iterations i % 5 == 2 at more than one thread */

enum { STATIC, STATIC4, DYNAMIC, GUIDED, PFOR, COLLAPSE, CALL, CST, CS4, CD4, NFAM };
static const char *names[NFAM] = {"static", "static4", "dynamic", "guided", "pfor", "collapse", "call", "cst", "cs4", "cd4"};
static const int sizes[NFAM] = {N, N, N, N, 2 * N, N, N, N, N, N};

static struct rec {
  unsigned long long id;
  double us, cpu;
} *recs[NFAM];

static volatile double sink;
static long unit = 40000;

static void spin(long units)
{
  double x = 0;
  for (long i = 0; i < units * unit; i++)
    x += (double)i * 1e-9;
  sink = x;
}

static double cpu_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* units is the work of iteration i: it grows with i, and is FACTOR times
 * larger at more than one thread for i % 5 == 2. */
static long units(int i)
{
  long u = 1 + i % 4;
  return i % 5 == 2 && omp_get_num_threads() > 1 ? FACTOR * u : u;
}

/* work spins the work of key i of family f and notes who ran it. */
static void work(int f, int i, long u)
{
  double t0 = omp_get_wtime(), c0 = cpu_us();
  spin(u);
  recs[f][i].cpu = cpu_us() - c0;
  recs[f][i].us = (omp_get_wtime() - t0) * 1e6;
  recs[f][i].id = TASK_ID();
}

/* spawn creates the task of key i of family CALL: in a function the loop
 * body calls, not in the loop's body itself. */
static void spawn(int i, long u)
{
  #pragma omp task firstprivate(i, u)
  work(CALL, i, u);
}

int main(int argc, char **argv)
{
  if (argc > 1)
    unit = atol(argv[1]);
  for (int f = 0; f < NFAM; f++)
    recs[f] = calloc(sizes[f], sizeof *recs[f]);

  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < N; i++) {
      long u = units(i);
      #pragma omp task firstprivate(i, u)
      work(STATIC, i, u);
    }
    #pragma omp for schedule(static, 4)
    for (int i = N - 1; i >= 0; i--) {
      long u = units(N - 1 - i);
      #pragma omp task firstprivate(i, u)
      work(STATIC4, N - 1 - i, u);
    }
    #pragma omp for schedule(dynamic) nowait
    for (int i = 0; i < 2 * N; i += 2) {
      long u = units(i / 2);
      #pragma omp task firstprivate(i, u)
      work(DYNAMIC, i / 2, u);
      spawn(i / 2, u);
    }
    #pragma omp for schedule(guided)
    for (int i = 0; i < N; i++) {
      long u = units(i);
      #pragma omp critical
      {
        #pragma omp task firstprivate(i, u)
        work(GUIDED, i, u);
      }
    }
    #pragma omp for collapse(2)
    for (int a = 0; a < 4; a++)
      for (int b = 0; b < 4; b++) {
        long u = units(4 * a + b);
        #pragma omp task firstprivate(a, b, u)
        work(COLLAPSE, 4 * a + b, u);
      }
  }

  #pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 2; k++) {
      long u = units(i) * (1 + k);
      #pragma omp task firstprivate(i, k, u)
      work(PFOR, 2 * i + k, u);
    }
  }

  #pragma omp parallel
  {
    #pragma omp for /* cst */
    for (int i = 0; i < N; i++)
      work(CST, i, units(i));
    #pragma omp for schedule(static, 4) /* cs4 */
    for (int i = 0; i < N; i++)
      work(CS4, i, units(i));
    #pragma omp for schedule(dynamic, 4) /* cd4 */
    for (int i = 0; i < N; i++)
      work(CD4, i, units(i));
  }

  for (int f = 0; f < NFAM; f++) {
    int n = 0;
    for (int i = 0; i < sizes[f]; i++)
      if (recs[f][i].us > 0) {
        n++;
#ifdef POMP_H
        fprintf(stderr, "%s %s %d id 0x%llx us %.1f cpu %.1f\n", f >= CST ? "iter" : "key", names[f], i, recs[f][i].id, recs[f][i].us, recs[f][i].cpu);
#endif
      }
    printf("%s %d\n", names[f], n);
  }
  return 0;
}
