// C++ raw strings holding braces, quotes and directives.
#include <cstdio>

const char *raw_text()
{
  return R"(
#pragma omp parallel
{ "not a string" )";
}

void raw(int n)
{
  const char *a = R"x(}} #pragma omp barrier )" {{)x";
  const char *b = u8R"(_Pragma("omp single"))";
  const wchar_t *c = LR"--(
  #pragma omp critical
  }--)--";
  #pragma omp parallel for
  for (int i = 0; i < n; i++) {
    const char *d = R"(})";
    std::printf("%s %s %ls %s\n", a, b, c, d);
  }
  std::puts(raw_text());
}
