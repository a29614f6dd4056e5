/* counts.c — one OpenMP construct repeated a given number of times, for
 * counting what the construct costs in instructions and clock reads
 * (bench/driver/counts.go runs it under callgrind at two lengths and
 * divides the difference by the difference of repetitions). The work
 * between constructs is an increment, so that the counts are the
 * construct's and the measurement's.
 * Usage: counts NAME N. Prints on stdout a checksum that depends on N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

static long sum;
static omp_lock_t lock;

static void parallel(long n)
{
  for (long i = 0; i < n; i++) {
    #pragma omp parallel
    {
      #pragma omp atomic
      sum++;
    }
  }
}

static void loop(long n)
{
  #pragma omp parallel
  for (long i = 0; i < n; i++) {
    #pragma omp for reduction(+:sum)
    for (int k = 0; k < 4; k++)
      sum++;
  }
}

static void barrier(long n)
{
  #pragma omp parallel
  for (long i = 0; i < n; i++) {
    #pragma omp barrier
  }
  sum += n;
}

static void single(long n)
{
  #pragma omp parallel
  for (long i = 0; i < n; i++) {
    #pragma omp single nowait
    sum++;
  }
}

static void critical(long n)
{
  #pragma omp parallel
  for (long i = 0; i < n; i++) {
    #pragma omp critical
    sum++;
  }
}

static void atomic(long n)
{
  #pragma omp parallel
  for (long i = 0; i < n; i++) {
    #pragma omp atomic
    sum++;
  }
}

static void locks(long n)
{
  omp_init_lock(&lock);
  #pragma omp parallel
  for (long i = 0; i < n; i++) {
    omp_set_lock(&lock);
    sum++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
}

static void task(long n)
{
  #pragma omp parallel
  #pragma omp single
  {
    for (long i = 0; i < n; i++) {
      #pragma omp task
      {
        #pragma omp atomic
        sum++;
      }
    }
  }
}

static void taskwait(long n)
{
  #pragma omp parallel
  #pragma omp single
  for (long i = 0; i < n; i++) {
    #pragma omp taskwait
    sum++;
  }
}

static void taskgroup(long n)
{
  #pragma omp parallel
  #pragma omp single
  for (long i = 0; i < n; i++) {
    #pragma omp taskgroup
    sum++;
  }
}

static const struct {
  const char *name;
  void (*run)(long);
} tests[] = {
  {"parallel", parallel}, {"for", loop}, {"barrier", barrier}, {"single", single}, {"critical", critical},
  {"atomic", atomic}, {"lock", locks}, {"task", task}, {"taskwait", taskwait}, {"taskgroup", taskgroup},
};

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: counts NAME N\n");
    return 2;
  }
  long n = atol(argv[2]);
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
    if (!strcmp(argv[1], tests[i].name)) {
      tests[i].run(n);
      printf("%ld\n", sum);
      return 0;
    }
  fprintf(stderr, "counts: no construct %s\n", argv[1]);
  return 2;
}
