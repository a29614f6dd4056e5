/* Every thread of the team calls exit(3) at the same moment. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(void)
{
  long n = 0;
  #pragma omp parallel reduction(+: n)
  {
    #pragma omp for
    for (int i = 0; i < 1000; i++)
      n += i;
    #pragma omp masked
    {
      printf("%ld\n", n);
    }
    #pragma omp barrier
    exit(3);
  }
  return 0;
}
