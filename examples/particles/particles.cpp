#include "particles.hpp"

std::vector<Particle> make_particles(int n)
{
  std::vector<Particle> ps(n);
  #pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    ps[i] = Particle{(i % 97) * 100, (i / 97) * 100, 0, 0};
  return ps;
}

void step(std::vector<Particle> &ps)
{
  std::int64_t cx = 0, cy = 0;
  const int n = static_cast<int>(ps.size());
  #pragma omp parallel
  {
    #pragma omp for reduction(+: cx, cy)
    for (int i = 0; i < n; i++) {
      cx += ps[i].x;
      cy += ps[i].y;
    }
    #pragma omp single
    {
      cx /= n;
      cy /= n;
    }
    #pragma omp for schedule(dynamic, 64)
    for (int i = 0; i < n; i++) {
      Particle &p = ps[i];
      p.vx += (cx - p.x) / 64;
      p.vy += (cy - p.y) / 64;
      p.x += p.vx;
      p.y += p.vy;
    }
  }
}
