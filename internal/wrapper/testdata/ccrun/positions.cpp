// Prints where the compiler says its lines and columns are, inside
// directives, then fails an assert: the instrumented program prints what
// the original does.
#include <cassert>
#include <cstdio>
#if defined(__clang__)
#define COLUMN() __builtin_COLUMN()
#else
#include <source_location>
#define COLUMN() int(std::source_location::current().column())
#endif

#define WHERE(what) std::printf("%s %s:%d:%d\n", what, __FILE__, __LINE__, COLUMN())

static int column(int c = COLUMN()) { return c; }

int main(int argc, char **)
{
  WHERE("main");
  #pragma omp parallel num_threads(1)
  {
      WHERE("parallel");   std::printf("column %d %d\n", COLUMN(), column());
    #pragma omp task
    	{ WHERE("task"); }
    #pragma omp taskwait
  }
  _Pragma("omp parallel num_threads(1)") {	std::printf("operator %d %d\n", __LINE__, column()); }
  #pragma omp parallel for num_threads(1)
  for (int i = 0; i < 2; i++) std::printf("loop %d %d:%d\n", i, __LINE__,   column());
  std::fflush(stdout);
  assert(argc == 42 && "the assert names its line and its text");
  return 0;
}
