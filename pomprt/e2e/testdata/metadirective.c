/* Metadirectives whose variant is known at compile time (issue 10). Their
 * statements hold no directive: clang 14 fails on metadirectives whose
 * block holds one. The sums do not depend on the team size. */
#include <stdio.h>

int main(void)
{
  int s = 0, t = 0, n = 0;
  #pragma omp metadirective default(parallel for reduction(+: s))
  for (int i = 0; i < 1000; i++)
    s += i;
  #pragma omp metadirective when(device={kind(host)}: parallel num_threads(2)) default(single)
  n = 1;
  #pragma omp metadirective when(user={condition(0)}: single) default(parallel for reduction(+: t) num_threads(3))
  for (int i = 0; i < 10; i++)
    t += i;
  printf("%d %d %d\n", s, t, n);
  return 0;
}
