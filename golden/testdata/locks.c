/* The OpenMP lock API, simple and nested, with hints, is wrapped; names
 * that merely contain a lock routine's name are not. */
#include <omp.h>

struct guard {
  omp_lock_t lock;
  void (*omp_set_lock)(omp_lock_t *);
};

static void my_omp_set_lock(omp_lock_t *l) { omp_set_lock(l); }
static void omp_set_lock_twice(omp_lock_t *l) { my_omp_set_lock(l); }

int shared_counter(int n)
{
  omp_lock_t lock;
  omp_nest_lock_t nest;
  struct guard g;
  int count = 0;
  omp_init_lock(&lock);
  omp_init_lock_with_hint(&g.lock, omp_sync_hint_contended);
  omp_init_nest_lock(&nest);
  g.omp_set_lock = omp_set_lock;
  #pragma omp parallel shared(count)
  {
    for (int i = 0; i < n; i++) {
      omp_set_lock(&lock);
      count++;
      omp_unset_lock(&lock);
      if (omp_test_lock(&g.lock)) {
        omp_unset_lock(&g.lock);
      }
      omp_set_nest_lock(&nest);
      if (omp_test_nest_lock(&nest))
        omp_unset_nest_lock(&nest);
      omp_unset_nest_lock(&nest);
    }
  }
  g.omp_set_lock(&lock);
  omp_unset_lock(&lock);
  (void)omp_set_lock_twice;
  omp_destroy_nest_lock(&nest);
  omp_destroy_lock(&g.lock);
  omp_destroy_lock(&lock);
  omp_nest_lock_t hinted;
  omp_init_nest_lock_with_hint(&hinted, omp_sync_hint_speculative);
  omp_destroy_nest_lock(&hinted);
  return count;
}
