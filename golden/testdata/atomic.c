/* atomic: read, write, update, capture and compare, with memory orders
 * and a hint. */
#include <omp.h>

int hits, best, old;

int record(int v)
{
  int seen;
  #pragma omp atomic
  hits++;
  #pragma omp atomic update relaxed
  hits += v;
  #pragma omp atomic read acquire
  seen = hits;
  #pragma omp atomic write release
  old = seen;
  #pragma omp atomic capture seq_cst
  seen = hits++;
  #pragma omp atomic capture acq_rel
  { seen = hits; hits = v; }
  #pragma omp atomic compare
  if (best < v) { best = v; }
  #pragma omp atomic compare capture
  { seen = best; if (best == v) { best = 0; } }
  #pragma omp atomic hint(omp_sync_hint_uncontended) seq_cst
  hits--;
  return seen;
}
