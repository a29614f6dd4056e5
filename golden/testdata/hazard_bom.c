/* A UTF-8 byte order mark starts this file; the output cannot keep it
 * behind the header, so it is dropped. Identifiers and strings in UTF-8:
 * été, ∑. */
#include <stdio.h>

void bom(int n)
{
  const char *sigma = "∑ = ";
  int s = 0, été = 1;
  #pragma omp parallel for reduction(+: s) firstprivate(été)
  for (int i = 0; i < n; i++)
    s += i * été;
  printf("%s%d\n", sigma, s);
}
