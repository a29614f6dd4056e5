/* Grains whose identity is known by construction: tasks created by the
 * iterations of worksharing loops that several threads run (dynamic,
 * dynamic with a chunk size, static), by each thread of a team for its
 * own work, in the sections of a sections construct and in singles;
 * nested tasks; and taskloops executed several times, with the loop
 * variable declared in the header and outside it, with a grainsize, with
 * the default split and with nogroup. Every task's work is a function of
 * its logical key (some of them grow with the team by construction).
 *
 * Instrumented (pomp.h defines POMP_H), the program writes to stderr,
 * per key, the task that ran it (POMP_Get_current_task), the time it
 * measured itself and the CPU time its thread spent meanwhile (less when
 * the thread was preempted): the truth that gopari grains' lineages and
 * work deviations are checked against. It prints the same to stdout
 * either way. The first argument is the spin's iterations per unit of
 * work. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef POMP_H
#define TASK_ID() ((unsigned long long)POMP_Get_current_task())
#else
#define TASK_ID() 0ull
#endif

#define NFOR 12   /* iterations of the worksharing loops */
#define MAXT 4    /* threads that create tasks of their own */
#define NPER 4    /* tasks per thread */
#define NSEC 3    /* sections */
#define NSINGLE 4 /* singles, each two tasks, the second's work grows with the team */
#define DEPTH 3   /* levels of the tree below its root */
#define NTL 32    /* iterations of each taskloop */
#define REPS 3    /* executions of each taskloop */

enum {
  FOR, DYN3, STATIC, THREAD, SECTION, SINGLE, TREE, TLIN, TLOUT, TLDEF, TLNOGROUP, NFAM
};
static const char *names[NFAM] = {"for", "dyn3", "static", "thread", "section", "single", "tree",
                                  "tl_in", "tl_out", "tl_default", "tl_nogroup"};
static const int sizes[NFAM] = {NFOR, 2 * NFOR, NFOR, MAXT * NPER, 2 * NSEC, 2 * NSINGLE, (2 << DEPTH) - 1,
                                REPS * NTL, REPS * NTL, REPS * NTL, REPS * NTL};

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

/* work spins units of work for key i of family f and notes who ran it. */
static void work(int f, int i, long units)
{
  double t0 = omp_get_wtime(), c0 = cpu_us();
  spin(units);
  recs[f][i].cpu = cpu_us() - c0;
  recs[f][i].us = (omp_get_wtime() - t0) * 1e6;
  recs[f][i].id = TASK_ID();
}

/* tree is node n (heap numbering) at depth d: its own work, then its two
 * children. */
static void tree(int d, int n)
{
  work(TREE, n, 1 + n % 3);
  if (d == DEPTH)
    return;
  for (int k = 1; k <= 2; k++) {
    #pragma omp task firstprivate(d, n, k)
    tree(d + 1, 2 * n + k);
  }
  #pragma omp taskwait
}

int main(int argc, char **argv)
{
  if (argc > 1)
    unit = atol(argv[1]);
  for (int f = 0; f < NFAM; f++)
    recs[f] = calloc(sizes[f], sizeof *recs[f]);

  #pragma omp parallel
  {
    #pragma omp for schedule(dynamic)
    for (int i = 0; i < NFOR; i++) {
      #pragma omp task firstprivate(i)
      work(FOR, i, 1 + i % 3);
    }
    #pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < NFOR; i++) {
      for (int k = 0; k < 2; k++) {
        #pragma omp task firstprivate(i, k)
        work(DYN3, 2 * i + k, 1 + (i + k) % 3);
      }
    }
    #pragma omp for schedule(static)
    for (int i = 0; i < NFOR; i++) {
      #pragma omp task firstprivate(i)
      work(STATIC, i, 1 + i % 3);
    }
  }

  #pragma omp parallel
  {
    int t = omp_get_thread_num();
    for (int k = 0; k < NPER && t < MAXT; k++) {
      #pragma omp task firstprivate(t, k)
      work(THREAD, t * NPER + k, 1 + (t + k) % 3);
    }
  }

  #pragma omp parallel
  {
    #pragma omp sections
    {
      #pragma omp section
      for (int k = 0; k < 2; k++) {
        #pragma omp task firstprivate(k)
        work(SECTION, k, 1 + k);
      }
      #pragma omp section
      for (int k = 0; k < 2; k++) {
        #pragma omp task firstprivate(k)
        work(SECTION, 2 + k, 2 + k);
      }
      #pragma omp section
      for (int k = 0; k < 2; k++) {
        #pragma omp task firstprivate(k)
        work(SECTION, 4 + k, 3 - k);
      }
    }
    for (int r = 0; r < NSINGLE; r++) {
      #pragma omp single nowait
      {
        #pragma omp task firstprivate(r)
        work(SINGLE, 2 * r, 1 + r);
        #pragma omp task firstprivate(r)
        work(SINGLE, 2 * r + 1, 4L * omp_get_num_threads());
      }
    }
  }

  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task
    tree(0, 0);
    #pragma omp taskwait
    int j;
    for (int rep = 0; rep < REPS; rep++) {
      #pragma omp taskloop grainsize(4)
      for (int i = 0; i < NTL; i++)
        work(TLIN, rep * NTL + i, 1 + (i / 4 + rep) % 3);
      #pragma omp taskloop grainsize(4)
      for (j = 0; j < NTL; j++)
        work(TLOUT, rep * NTL + j, 1 + (j / 4 + rep + 1) % 3);
      #pragma omp taskloop
      for (int i = 0; i < NTL; i++)
        work(TLDEF, rep * NTL + i, 1);
      #pragma omp taskloop grainsize(8) nogroup
      for (int i = 0; i < NTL; i++)
        work(TLNOGROUP, rep * NTL + i, 1);
    }
  }

  for (int f = 0; f < NFAM; f++) {
    int n = 0;
    for (int i = 0; i < sizes[f]; i++)
      if (recs[f][i].us > 0) {
        n++;
#ifdef POMP_H
        fprintf(stderr, "key %s %d id 0x%llx us %.1f cpu %.1f\n", names[f], i, recs[f][i].id, recs[f][i].us, recs[f][i].cpu);
#endif
      }
    printf("%s %d\n", names[f], n);
  }
  return 0;
}
