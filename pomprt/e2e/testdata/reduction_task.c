/* Task reductions on worksharing constructs (issue 10): each loop or
 * section creates tasks that add into the reduction; the counts and the
 * sums are known by construction. scope is left out under clang 14,
 * which lacks it. */
#include <stdio.h>

int main(void)
{
  int s = 0, t = 0, u = 0, v = 0, w = 0;
  #pragma omp parallel
  {
    #pragma omp for reduction(task, +: s)
    for (int i = 0; i < 100; i++) {
      #pragma omp task in_reduction(+: s)
      s += i;
    }
    #pragma omp sections reduction(task, +: t)
    {
      #pragma omp section
      {
        #pragma omp task in_reduction(+: t)
        t += 1;
      }
      #pragma omp section
      t += 2;
    }
#ifndef __clang__
    #pragma omp scope reduction(task, +: u)
    {
      #pragma omp task in_reduction(+: u)
      u += 1;
    }
#endif
  }
  #pragma omp parallel for reduction(task, +: v)
  for (int i = 0; i < 10; i++) {
    #pragma omp task in_reduction(+: v)
    v += i;
  }
  #pragma omp parallel sections reduction(task, +: w)
  {
    #pragma omp section
    {
      #pragma omp task in_reduction(+: w)
      w += 3;
    }
  }
  /* u depends on the team size; the other sums do not. */
  printf("%d %d %d %d\n", s, t, v, w);
  return u < 0;
}
