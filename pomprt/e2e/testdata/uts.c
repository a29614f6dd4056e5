/* uts-like recursion: a chain of tasks 1,200 deep, each of which creates
 * its successor and a fib(10) tree of tasks (177 each), and waits for
 * them: 212,400 tasks, more than 1,000 per task region and thread. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
  long x, y;
  if (n < 2)
    return n;
  #pragma omp task shared(x)
  x = fib(n - 1);
  #pragma omp task shared(y)
  y = fib(n - 2);
  #pragma omp taskwait
  return x + y;
}

static long total;

static void node(int depth)
{
  long v;
  if (depth == 0)
    return;
  #pragma omp task
  node(depth - 1);
  #pragma omp task shared(v)
  v = fib(10);
  #pragma omp taskwait
  #pragma omp atomic
  total += v;
}

int main(int argc, char **argv)
{
  int depth = argc > 1 ? atoi(argv[1]) : 1200;
  #pragma omp parallel
  #pragma omp single
  node(depth);
  printf("total %ld\n", total);
  return 0;
}
