/* sections: a first section without a section directive, sections whose
 * bodies are statement sequences, nowait and lastprivate, and section
 * directives written as _Pragma. */
#include <stdio.h>

void phases(double *a, double *b, int n)
{
  int who = 0;
  #pragma omp parallel shared(a, b, n)
  {
    #pragma omp sections lastprivate(who)
    {
      a[0] = 1.0;
      a[1] = 2.0;
      who = 1;
      #pragma omp section
      b[0] = 3.0;
      b[1] = 4.0;
      who = 2;
      #pragma omp section
      {
        for (int i = 2; i < n; i++)
          a[i] = b[i];
      }
      who = 3;
    }
    #pragma omp sections nowait
    {
      #pragma omp section
      printf("first\n");
      #pragma omp section
      {
        printf("second\n");
      }
    }
    #pragma omp sections
    {
      _Pragma("omp section") printf("third\n");
      _Pragma("omp section")
      printf("fourth\n");
    }
  }
  printf("%d\n", who);
}
