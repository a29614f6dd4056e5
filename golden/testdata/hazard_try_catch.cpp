// try/catch blocks inside and around constructs.
#include <cstdio>
#include <stdexcept>
#include <vector>

int checked(std::vector<int> &v)
{
  int errors = 0;
  #pragma omp parallel for reduction(+: errors)
  for (int i = 0; i < (int)v.size(); i++)
    try {
      if (v[i] < 0)
        throw std::range_error("negative");
      v[i] *= 2;
    } catch (const std::range_error &e) {
      errors++;
    } catch (...) {
      errors += 100;
    }
  try {
    #pragma omp parallel
    {
      #pragma omp single
      try {
        v.at(v.size());
      } catch (const std::out_of_range &) {
        std::puts("caught inside single");
      }
    }
  } catch (...) {
    std::puts("never");
  }
  return errors;
}
