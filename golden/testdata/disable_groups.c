// gopari: --disable=locks,atomic,barrier
/* --disable leaves the named groups alone: lock calls and atomics are not
 * instrumented, and without the barrier group the implicit barrier of a
 * worksharing construct is kept. */
#include <omp.h>

int guarded(int n, omp_lock_t *lock)
{
  int total = 0;
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < n; i++) {
      omp_set_lock(lock);
      total += i;
      omp_unset_lock(lock);
    }
    #pragma omp atomic
    total++;
    #pragma omp barrier
  }
  return total;
}
