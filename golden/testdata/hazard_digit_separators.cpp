// C++14 digit separators must not be taken for character constants.
#include <cstdio>

long long sum_big()
{
  long long s = 0;
  const long long n = 1'000'000;
  const int mask = 0b1111'0000;
  const double scale = 1'000.000'1;
  const int hex = 0xFF'FF;
  #pragma omp parallel for reduction(+: s) schedule(static, 1'024)
  for (long long i = 0; i < n; i += 1'000)
    s += i & mask;
  #pragma omp parallel for num_threads(2) schedule(dynamic, 1'0) \
      reduction(+: s)
  for (int i = 0; i < 1'0; i++)
    s += 'a';
  const char c = '{';
  std::printf("%lld %f %d %c\n", s, scale, hex, c);
  return s;
}
