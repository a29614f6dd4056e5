// gopari: ; cflags: -Wno-cpp; original-fails: gcc 12 knows no begin metadirective
/* begin metadirective … end metadirective: the code between becomes the
 * block of the chosen variant. */
#include <stdio.h>

int enclosed(int use)
{
  int n = 0;
  #pragma omp begin metadirective when(user={condition(true)}: parallel num_threads(2)) default(nothing)
  int k = 1;
  #pragma omp atomic
  n += k;
  #pragma omp end metadirective
  #pragma omp begin metadirective otherwise(nothing)
  n += 10;
  #pragma omp end metadirective
  return n;
}
