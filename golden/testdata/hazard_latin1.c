/* Latin-1 bytes in comments and strings: café, naïve, © 2024. */
#include <stdio.h>

void latin1(int n)
{
  /* résumé { of the loop */
  #pragma omp parallel for /* über */ schedule(static)
  for (int i = 0; i < n; i++)
    printf("%d °C\n", i); // à la « }
}
