/* critical: unnamed, named and with a hint. */
#include <omp.h>

int counts[3];

void tally(const int *v, int n)
{
  #pragma omp parallel for
  for (int i = 0; i < n; i++) {
    #pragma omp critical
    counts[0] += v[i];
    #pragma omp critical (odd)
    {
      if (v[i] % 2)
        counts[1]++;
    }
    #pragma omp critical(big) hint(omp_sync_hint_contended)
    if (v[i] > 100) {
      counts[2]++;
    }
  }
}
