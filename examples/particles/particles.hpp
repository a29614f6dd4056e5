// A toy particle system in integer units, so that every sum is exact and
// the output does not depend on the number of threads.
#pragma once
#include <cstdint>
#include <vector>

struct Particle {
  std::int64_t x, y;   // position
  std::int64_t vx, vy; // velocity
};

// Initial particles on a lattice.
std::vector<Particle> make_particles(int n);

// One time step: pull every particle toward the centre of mass.
void step(std::vector<Particle> &ps);

// Statistics over all particles.
struct Stats {
  std::int64_t energy;
  std::int64_t spread;
};
Stats stats(const std::vector<Particle> &ps);
