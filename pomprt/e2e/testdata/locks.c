/* The OpenMP lock API, simple and nested, with hints. */
#include <stdio.h>
#include <omp.h>

static omp_nest_lock_t nest;

static void deep(int d, long *c)
{
  omp_set_nest_lock(&nest);
  if (d > 0)
    deep(d - 1, c);
  else
    (*c)++;
  omp_unset_nest_lock(&nest);
}

int main(void)
{
  omp_lock_t lock;
  long counter = 0, nested = 0, tested = 0;
  omp_init_lock(&lock);
#ifdef __clang__
  omp_init_nest_lock_with_hint(&nest, omp_sync_hint_contended);
#else
  omp_init_nest_lock(&nest); /* libgomp 12 declares the _with_hint routines but lacks them */
#endif
  #pragma omp parallel
  {
    for (int i = 0; i < 1000; i++) {
      omp_set_lock(&lock);
      counter++;
      omp_unset_lock(&lock);
    }
    deep(3, &nested);
    while (!omp_test_lock(&lock))
      ;
    tested++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  printf("per thread: %ld %ld %ld\n", counter / omp_get_max_threads(), nested / omp_get_max_threads(), tested / omp_get_max_threads());
  return 0;
}
