/* Declarative directives pass through untouched: threadprivate, declare
 * reduction, declare simd, declare target ... end declare target and
 * requires. (GCC 12 does not implement the allocate directive.) */
#include <omp.h>

#pragma omp requires dynamic_allocators

static int counter;
#pragma omp threadprivate(counter)

typedef struct { double re, im; } cplx;

#pragma omp declare reduction(cadd : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) \
    initializer(omp_priv = (cplx){0.0, 0.0})

#pragma omp declare simd uniform(a) linear(i: 1) notinbranch
double at(const double *a, int i)
{
  return a[i] * 2.0;
}

/* Nothing inside a declare target block is instrumented: the code may run
 * on a device, where the POMP functions do not exist. */
#pragma omp declare target
omp_lock_t device_lock;
int device_square(int x)
{
  omp_set_lock(&device_lock);
  #pragma omp parallel for
  for (int i = 0; i < 1; i++)
    x *= x;
  omp_unset_lock(&device_lock);
  return x;
}
#pragma omp end declare target

cplx total(const cplx *v, int n)
{
  cplx s = {0.0, 0.0};
  omp_set_lock(&device_lock);
  #pragma omp parallel for reduction(cadd: s) copyin(counter)
  for (int i = 0; i < n; i++) {
    s.re += v[i].re;
    s.im += v[i].im;
    counter++;
  }
  omp_unset_lock(&device_lock);
  return s;
}
