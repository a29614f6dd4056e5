/* Worksharing loops with every schedule, sections, single with
 * copyprivate, master and masked, named critical, atomic and ordered. */
#include <stdio.h>
#include <omp.h>

#define N 1000

int main(void)
{
  double a[N];
  long sums[6] = {0, 0, 0, 0, 0, 0};
  int order[N], next = 0, secs = 0, crit = 0, masters = 0;
  long atom = 0;
  double copied = 0.0;
  #pragma omp parallel shared(a, sums, order, next, secs, crit, masters, atom)
  {
    double mine;
    #pragma omp for schedule(static)
    for (int i = 0; i < N; i++)
      a[i] = i * 0.5;
    #pragma omp for schedule(static, 7) reduction(+: sums[0])
    for (int i = 0; i < N; i++)
      sums[0] += i;
    #pragma omp for schedule(dynamic) reduction(+: sums[1])
    for (int i = 0; i < N; i++)
      sums[1] += 2 * i;
    #pragma omp for schedule(dynamic, 16) reduction(+: sums[2]) nowait
    for (int i = 0; i < N; i++)
      sums[2] += 3 * i;
    #pragma omp for schedule(guided) reduction(+: sums[3])
    for (int i = 0; i < N; i++)
      sums[3] += 4 * i;
    #pragma omp for schedule(guided, 4) reduction(+: sums[4])
    for (int i = 0; i < N; i++)
      sums[4] += 5 * i;
    #pragma omp for schedule(auto) reduction(+: sums[5])
    for (int i = 0; i < N; i++)
      sums[5] += 6 * i;
    #pragma omp for schedule(runtime)
    for (int i = 0; i < N; i++)
      a[i] += 1.0;
    #pragma omp for ordered schedule(dynamic, 3)
    for (int i = 0; i < N; i++) {
      #pragma omp ordered
      order[next++] = i;
    }
    #pragma omp sections
    {
      #pragma omp section
      {
        #pragma omp atomic
        secs += 1;
      }
      #pragma omp section
      {
        #pragma omp atomic
        secs += 10;
      }
      #pragma omp section
      {
        #pragma omp atomic
        secs += 100;
      }
    }
    #pragma omp single copyprivate(mine)
    mine = 42.5;
    #pragma omp critical (copy)
    copied += mine;
    #pragma omp master
    masters++;
    #pragma omp masked filter(0)
    masters++;
    #pragma omp critical (counter)
    crit++;
    #pragma omp atomic update
    atom += 2;
    #pragma omp barrier
  }
  int inorder = 1;
  for (int i = 0; i < N; i++)
    inorder &= order[i] == i;
  printf("a[%d] = %.1f\n", N - 1, a[N - 1]);
  for (int k = 0; k < 6; k++)
    printf("sum %d = %ld\n", k, sums[k]);
  printf("ordered %d, sections %d, masters %d\n", inorder, secs, masters);
  printf("copied per thread %.1f, critical == threads: %d, atomic == 2*threads: %d\n",
         copied / crit, crit == omp_get_max_threads(), atom == 2 * crit);
  return 0;
}
