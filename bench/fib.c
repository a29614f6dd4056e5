/* BOTS-style fib: every call creates a task for each of its two
 * recursive calls and waits for them (task + taskwait per call, no
 * cutoff), from one thread in a parallel region. Usage: fib [n]. Prints
 * on stderr the wall time per task and the process CPU time per task, in
 * ns, and on stdout fib(n). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <omp.h>

static long fib(int n)
{
  long x, y;
  if (n < 2)
    return n;
  #pragma omp task shared(x) firstprivate(n)
  x = fib(n - 1);
  #pragma omp task shared(y) firstprivate(n)
  y = fib(n - 2);
  #pragma omp taskwait
  return x + y;
}

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 30;
  long r = 0;
  /* calls(n) = 2 fib(n+1) - 1; every call but the first is a task */
  long a = 0, b = 1;
  for (int i = 0; i < n + 1; i++) {
    long c = a + b;
    a = b;
    b = c;
  }
  long tasks = 2 * a - 2;
  double c0 = cpu(), t0 = omp_get_wtime();
  #pragma omp parallel
  #pragma omp single
  r = fib(n);
  double t1 = omp_get_wtime(), c1 = cpu();
  fprintf(stderr, "%.2f ns/task\n%.2f cpu-ns/task\n", (t1 - t0) * 1e9 / tasks, (c1 - c0) * 1e9 / tasks);
  printf("fib(%d) = %ld\n", n, r);
  return 0;
}
