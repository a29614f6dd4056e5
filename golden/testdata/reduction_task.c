/* reduction(task, ...) on for, sections and scope, and on the combined
 * parallel for and parallel sections: OpenMP forbids nowait with the task
 * modifier, so these keep their implicit barrier (measured inside the
 * construct, POMP_FLAG_IMPLICIT_BARRIER) instead of getting nowait and an
 * explicit barrier. The plain reduction at the end still gets both. */
#include <stdio.h>

int main(void)
{
  int s = 0, t = 0, u = 0, v = 0, w = 0, x = 0;
  #pragma omp parallel
  {
    #pragma omp for reduction(task, +: s)
    for (int i = 0; i < 100; i++) {
      #pragma omp task in_reduction(+: s)
      s += i;
    }
    #pragma omp sections reduction(task,+:t)
    {
      #pragma omp section
      {
        #pragma omp task in_reduction(+: t)
        t += 1;
      }
      #pragma omp section
      t += 2;
    }
    #pragma omp scope reduction( task , + : u)
    {
      #pragma omp task in_reduction(+: u)
      u += 1;
    }
    #pragma omp for reduction(+: x)
    for (int i = 0; i < 10; i++)
      x += i;
  }
  #pragma omp parallel for reduction(task, +: v)
  for (int i = 0; i < 10; i++) {
    #pragma omp task in_reduction(+: v)
    v += i;
  }
  #pragma omp parallel sections reduction(task, +: w)
  {
    #pragma omp section
    w += 3;
  }
  printf("%d %d %d %d %d %d\n", s, t, u, v, w, x);
  return 0;
}
