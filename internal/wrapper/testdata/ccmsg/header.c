// differs gcc default /header\.c:.*(comparison of|IS_NEG)/: the directive in the header makes gopari cc compile the preprocessed source, as the compiler's own -save-temps builds do: a message inside a macro points at its expansion, without the "in expansion of macro" note
// differs clang default /header\.c:.*(comparison of|IS_NEG)|warnings? generated/: the same, and clang drops the -Wsign-compare warning of the expanded macro, as it does on its own preprocessed output
/* A directive in a user header: the source is compiled preprocessed. */
#include "kernels.h"

#define IS_NEG(x)   ((x) < 0u)

int header(int n, int *a)
{
  int    unused_here;
  #pragma omp parallel
  {
    if (IS_NEG(n))   a[0] = 1;
  }
  return header_sum(n, a);
}
