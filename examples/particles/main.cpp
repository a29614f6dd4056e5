#include <cstdio>
#include <cstdlib>
#include "particles.hpp"

int main(int argc, char **argv)
{
  int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  int steps = argc > 2 ? std::atoi(argv[2]) : 50;
  auto ps = make_particles(n);
  for (int s = 1; s <= steps; s++) {
    step(ps);
    if (s % 10 == 0) {
      Stats st = stats(ps);
      std::printf("step %3d: energy %lld, spread %lld\n", s, (long long)st.energy, (long long)st.spread);
    }
  }
  return 0;
}
