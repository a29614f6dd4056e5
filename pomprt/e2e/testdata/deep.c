/* uts-like recursion: a chain of tasks 1,200 deep, each of which creates
 * its successor and two leaves and waits for them with taskwait. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static long leaves;

static void node(int depth)
{
  if (depth == 0)
    return;
  #pragma omp task
  node(depth - 1);
  for (int i = 0; i < 2; i++) {
    #pragma omp task
    {
      #pragma omp atomic
      leaves++;
    }
  }
  #pragma omp taskwait
}

int main(int argc, char **argv)
{
  int depth = argc > 1 ? atoi(argv[1]) : 1200;
  #pragma omp parallel
  #pragma omp single
  node(depth);
  printf("leaves %ld\n", leaves);
  return 0;
}
