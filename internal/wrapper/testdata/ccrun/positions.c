/* Prints where the compiler says its lines are, inside directives, then
 * fails an assert: the instrumented program prints what the original
 * does. */
#include <assert.h>
#include <stdio.h>

#define WHERE(what) printf("%s %s:%d\n", what, __FILE__, __LINE__)

int main(int argc, char **argv)
{
  (void)argv;
  WHERE("main");
  #pragma omp parallel num_threads(1)
  {
      WHERE("parallel");   printf("line %d\n", __LINE__);
    #pragma omp task
    	{ WHERE("task"); }
    #pragma omp taskwait
  }
  _Pragma("omp parallel num_threads(1)") {	printf("operator %d\n", __LINE__); }
  #pragma omp parallel for num_threads(1)
  for (int i = 0; i < 2; i++) printf("loop %d %d\n", i, __LINE__);
  fflush(stdout);
  assert(argc == 42 && "the assert names its line and its text");
  return 0;
}
