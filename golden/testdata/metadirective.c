// gopari: ; cflags: -Wno-cpp
/* metadirective: the variant is instrumented where it is known at compile
 * time (default/otherwise alone, device kind on the host, literal user
 * conditions); otherwise the directive passes through with a warning
 * that says why. An empty variant is "nothing". The header's #warning,
 * for GCC before 13, which ignores metadirectives, is silenced here. */
#include <stdio.h>

int pick(int, int);
#pragma omp declare variant(pick) match(construct={parallel}) /* WARNING "'declare variant' passed through: the compiler chooses which function a call runs by context" */
int base(int a, int b);

int meta(int use, int *a, int n)
{
  int s = 0, t = 0;
  #pragma omp metadirective default(parallel num_threads(2))
  t++;
  #pragma omp metadirective when(device={kind(host)}: parallel for reduction(+: s)) default(for)
  for (int i = 0; i < n; i++)
    s += a[i];
  #pragma omp metadirective when(device={kind(nohost)}: target) when(user={condition(0)}: single) default(parallel num_threads(3))
  t += 2;
  #pragma omp metadirective when(user={condition(1)}: ) default(parallel)
  t += 4;
  #pragma omp metadirective when(user={condition(use)}: parallel) default(single) /* WARNING "'metadirective' passed through without instrumentation: the condition 'use' is known only when the program runs" */
  t += 8;
  #pragma omp metadirective when(implementation={vendor(gnu)}: parallel) /* WARNING "the selector 'implementation=\{vendor\(gnu\)\}' depends on the compiler" */
  t += 16;
  #pragma omp metadirective when(device={kind(host)}: parallel) when(user={condition(1)}: single) /* WARNING "several 'when' clauses match" */
  t += 32;
  return s + t;
}
