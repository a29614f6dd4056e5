/* Recursive tasks with if, final, untied, mergeable and depend clauses;
 * taskloop, taskgroup and taskyield. The output does not depend on the
 * number of threads. */
#include <stdio.h>
#include <omp.h>

static long fib(int n)
{
  long x = 0, y = 0;
  if (n < 2)
    return n;
  #pragma omp task shared(x) firstprivate(n) final(n < 5)
  x = fib(n - 1);
  #pragma omp task shared(y) firstprivate(n) if(n > 8) mergeable
  y = fib(n - 2);
  #pragma omp taskwait
  return x + y;
}

int main(void)
{
  long f = 0, pipeline = 0, loop = 0;
  int stage[4] = {0, 0, 0, 0};
  #pragma omp parallel
  {
    #pragma omp single
    {
      f = fib(20);
      #pragma omp task depend(out: stage[0]) shared(stage)
      stage[0] = 1;
      #pragma omp task depend(in: stage[0]) depend(out: stage[1]) shared(stage)
      stage[1] = stage[0] + 1;
      #pragma omp task depend(in: stage[1]) depend(out: stage[2]) shared(stage)
      stage[2] = stage[1] + 1;
      #pragma omp taskwait
      pipeline = stage[0] + stage[1] + stage[2];
      #pragma omp taskgroup
      {
        for (int i = 0; i < 8; i++) {
          /* untied only on leaf tasks: libomp 14 asserts on an undeferred
           * untied task and can hang on recursive untied tasks that wait,
           * instrumented or not. */
          #pragma omp task shared(stage) firstprivate(i) untied
          {
            #pragma omp taskyield
            #pragma omp atomic
            stage[3] += i;
          }
        }
      }
      #pragma omp taskloop grainsize(16) reduction(+: loop)
      for (int i = 0; i < 1000; i++)
        loop += i;
    }
  }
  printf("fib(20) = %ld\n", f);
  printf("pipeline = %ld, group = %d, taskloop = %ld\n", pipeline, stage[3], loop);
  return 0;
}
