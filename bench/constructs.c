/*
 * constructs.c — the overhead of OpenMP constructs, measured the way the
 * EPCC microbenchmarks do (Iwainsky et al., Euro-Par 2015, section 3): each test repeats a
 * construct around a fixed amount of work, a reference repeats the work
 * alone, and the difference per repetition is the construct's overhead.
 *
 * Usage: constructs [target seconds per test]
 * Prints one line per construct: "name overhead_ns".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

static int delaylength = 64;
static volatile double sink;

/* delay does a fixed amount of work that the compiler cannot remove. It
 * is never inlined, so that every test and its reference run the same
 * machine code for the work and differ only in the construct. */
static __attribute__((noinline)) void delay(int n)
{
  double a = 0.0;
  for (int i = 0; i < n; i++)
    a += i * 0.5;
  if (a < 0)
    sink = a;
}

static double target = 0.05;

typedef void (*test_fn)(int reps);

static double seconds(test_fn fn, int reps)
{
  double t0 = omp_get_wtime();
  fn(reps);
  return omp_get_wtime() - t0;
}

/* measure returns the overhead in seconds of one repetition of fn over
 * one of its reference ref. It picks a repetition count that makes fn
 * last about target/ROUNDS seconds, then times ref and fn in turn ROUNDS
 * times and compares the fastest of each: short, alternating runs keep
 * the minimum clear of the preemptions a shared machine has. */
#define ROUNDS 9
static double measure(test_fn fn, test_fn ref)
{
  int reps = 16;
  for (;;) {
    double t = seconds(fn, reps);
    if (t > target / (4 * ROUNDS) || reps > (1 << 26)) {
      reps = (int)(reps * (target / ROUNDS / (t > 1e-9 ? t : 1e-9)));
      if (reps < 1)
        reps = 1;
      break;
    }
    reps *= 4;
  }
  double best_ref = 1e30, best = 1e30;
  for (int k = 0; k < ROUNDS; k++) {
    double r = seconds(ref, reps), t = seconds(fn, reps);
    if (r < best_ref)
      best_ref = r;
    if (t < best)
      best = t;
  }
  return (best - best_ref) / reps;
}

/* References: the work alone, serially and in every thread. */
static void ref_serial(int reps)
{
  for (int j = 0; j < reps; j++)
    delay(delaylength);
}

static void ref_parallel(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++)
    delay(delaylength);
}

static void test_parallel(int reps)
{
  for (int j = 0; j < reps; j++) {
    #pragma omp parallel
    delay(delaylength);
  }
}

static void test_barrier(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++) {
    delay(delaylength);
    #pragma omp barrier
  }
}

static void test_single(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++) {
    #pragma omp single
    delay(delaylength);
  }
}

static void test_critical(int reps)
{
  #pragma omp parallel
  {
    int n = reps / omp_get_num_threads();
    for (int j = 0; j < n; j++) {
      #pragma omp critical
      delay(delaylength);
    }
  }
}

/* The reference for critical and locks: reps delays in all, shared out. */
static void ref_shared(int reps)
{
  #pragma omp parallel
  {
    int n = reps / omp_get_num_threads();
    for (int j = 0; j < n; j++)
      delay(delaylength);
  }
}

static omp_lock_t lock;

static void test_lock(int reps)
{
  #pragma omp parallel
  {
    int n = reps / omp_get_num_threads();
    for (int j = 0; j < n; j++) {
      omp_set_lock(&lock);
      delay(delaylength);
      omp_unset_lock(&lock);
    }
  }
}

static double counter;

static void test_atomic(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++) {
    delay(delaylength);
    #pragma omp atomic
    counter += 1.0;
  }
}

static void test_reduction(int reps)
{
  for (int j = 0; j < reps; j++) {
    double a = 0.0;
    #pragma omp parallel reduction(+: a)
    {
      delay(delaylength);
      a += 1.0;
    }
    if (a < 0)
      sink = a;
  }
}

static double fp[64];

static void test_firstprivate(int reps)
{
  for (int j = 0; j < reps; j++) {
    #pragma omp parallel firstprivate(fp)
    {
      delay(delaylength);
      if (fp[0] < 0)
        sink = fp[1];
    }
  }
}

#define ITERS 16 /* loop iterations per thread */

static void ref_loop(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++)
    for (int i = 0; i < ITERS; i++)
      delay(delaylength);
}

#define LOOP(name, sched)                                     \
  static void name(int reps)                                  \
  {                                                           \
    _Pragma("omp parallel")                                   \
    {                                                         \
      int n = ITERS * omp_get_num_threads();                  \
      for (int j = 0; j < reps; j++) {                        \
        _Pragma(sched)                                        \
        for (int i = 0; i < n; i++)                           \
          delay(delaylength);                                 \
      }                                                       \
    }                                                         \
  }

LOOP(test_static1, "omp for schedule(static, 1)")
LOOP(test_static16, "omp for schedule(static, 16)")
LOOP(test_dynamic1, "omp for schedule(dynamic, 1)")
LOOP(test_dynamic16, "omp for schedule(dynamic, 16)")
LOOP(test_guided1, "omp for schedule(guided, 1)")
LOOP(test_guided16, "omp for schedule(guided, 16)")

static void test_task(int reps)
{
  #pragma omp parallel
  {
    for (int j = 0; j < reps; j++) {
      #pragma omp task
      delay(delaylength);
    }
    #pragma omp taskwait
  }
}

static void test_taskwait(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++) {
    #pragma omp task
    delay(delaylength);
    #pragma omp taskwait
  }
}

static void test_taskgroup(int reps)
{
  #pragma omp parallel
  for (int j = 0; j < reps; j++) {
    #pragma omp taskgroup
    {
      #pragma omp task
      delay(delaylength);
    }
  }
}

static void test_taskloop(int reps)
{
  #pragma omp parallel
  #pragma omp single
  {
    int n = omp_get_num_threads();
    for (int j = 0; j < reps; j++) {
      #pragma omp taskloop grainsize(1)
      for (int i = 0; i < n; i++)
        delay(delaylength);
    }
  }
}

/* The taskloop reference: the work of all threads, spread over them. */
static void ref_taskloop(int reps) { ref_parallel(reps); }

struct test {
  const char *name;
  test_fn fn, ref;
  int per_loop; /* overhead per loop of ITERS iterations per thread */
};

int main(int argc, char **argv)
{
  if (argc > 1)
    target = atof(argv[1]);
  omp_init_lock(&lock);
  struct test tests[] = {
    {"parallel", test_parallel, ref_serial, 0},
    {"for static,1", test_static1, ref_loop, 1},
    {"for static,16", test_static16, ref_loop, 1},
    {"for dynamic,1", test_dynamic1, ref_loop, 1},
    {"for dynamic,16", test_dynamic16, ref_loop, 1},
    {"for guided,1", test_guided1, ref_loop, 1},
    {"for guided,16", test_guided16, ref_loop, 1},
    {"barrier", test_barrier, ref_parallel, 0},
    {"single", test_single, ref_parallel, 0},
    {"critical", test_critical, ref_shared, 0},
    {"lock/unlock", test_lock, ref_shared, 0},
    {"atomic", test_atomic, ref_parallel, 0},
    {"reduction", test_reduction, ref_serial, 0},
    {"firstprivate", test_firstprivate, ref_serial, 0},
    {"task creation", test_task, ref_parallel, 0},
    {"taskwait", test_taskwait, ref_parallel, 0},
    {"taskgroup", test_taskgroup, ref_parallel, 0},
    {"taskloop", test_taskloop, ref_taskloop, 0},
  };
  for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
    printf("%s\t%.1f\n", tests[k].name, measure(tests[k].fn, tests[k].ref) * 1e9);
    fflush(stdout);
  }
  omp_destroy_lock(&lock);
  return 0;
}
