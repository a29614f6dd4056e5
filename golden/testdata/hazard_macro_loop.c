/* Loops and conditions hidden behind macros: NAME(args) followed by a
 * block or a statement is a macro header, and the construct ends with its
 * body, not at the next semicolon. */
#include <stdio.h>

#define FOR_EACH(i, n) for (int i = 0; i < (n); i++)
#define WHEN(c) if (c)

void macros(int n, int *a)
{
  #pragma omp parallel for
  FOR_EACH(i, n) {
    a[i] = i;
  }
  printf("after the first loop\n");
  #pragma omp parallel for
  FOR_EACH(i, n)
    a[i] += i;
  #pragma omp parallel
  {
    #pragma omp single
    WHEN(n > 0) {
      printf("positive\n");
    }
    printf("every thread\n");
    #pragma omp for
    FOR_EACH(i, n)
      WHEN(a[i] > 2) {
        a[i] = 2;
      }
    printf("every thread again\n");
  }
}
