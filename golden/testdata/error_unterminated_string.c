#include <stdio.h>

void greet(void)
{
  #pragma omp parallel
  /* ERROR "unterminated string literal" */ printf("hello, world\n);
}
