/* Comments everywhere: around, inside and after directives. */
#include <stdio.h>

int comments(int n, int *v)
{
  int sum = 0; // a line comment that ends with a backslash \
  #pragma omp parallel for (this line is still the comment)
  /* a block comment holding a directive:
  #pragma omp parallel
  { */
  #pragma omp parallel /* a comment inside the directive */ shared(v) \
      reduction(+: sum) // and a line comment at its end
  {
    #pragma omp for /* a comment that spans
                       two lines inside the directive */ schedule(static)
    for (int i = 0; i < n; i++) /* comment before the body */
      sum += v[i]; // comment after the body
    #pragma omp single // trailing comment
    // a comment between the directive and its block
    /* and another one */
    {
      printf("}\n"); /* a brace in a string: } */
    }
  } /* end of parallel { */
  #pragma omp parallel \
    /* a comment in the middle of a continued
       directive, over two lines */ \
    num_threads(2)
  printf("done\n");
  return sum;
}
