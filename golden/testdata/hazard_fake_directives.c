/* Text that looks like a directive but is not one: in strings, in
 * character constants, in comments and in skipped branches. */
#include <stdio.h>

static const char *help =
  "#pragma omp parallel\n"
  "{ #pragma omp for }\n";

void fake(int n)
{
  const char *s = "_Pragma(\"omp parallel\")";
  char c = '#';
  // #pragma omp barrier
  /*
  #pragma omp critical
  */
  puts("#pragma omp single");
  printf("%s%s%c\n", help, s, c);
  #pragma omp parallel
  {
    printf("inside: %s\n", "#pragma omp master {");
    // _Pragma("omp barrier")
  }
  (void)n;
}
