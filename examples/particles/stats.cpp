#include <algorithm>
#include "particles.hpp"

Stats stats(const std::vector<Particle> &ps)
{
  std::int64_t energy = 0, minx = INT64_MAX, maxx = INT64_MIN;
  const int n = static_cast<int>(ps.size());
  #pragma omp parallel for reduction(+: energy) reduction(min: minx) reduction(max: maxx)
  for (int i = 0; i < n; i++) {
    energy += ps[i].vx * ps[i].vx + ps[i].vy * ps[i].vy;
    minx = std::min(minx, ps[i].x);
    maxx = std::max(maxx, ps[i].x);
  }
  return Stats{energy, maxx - minx};
}
