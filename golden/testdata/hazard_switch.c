/* Constructs inside switch statements, on case labels and as a switch
 * body. */
#include <stdio.h>

void dispatch(int op, int n, double *a)
{
  switch (op) {
  case 0:
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = 0.0;
    break;
  case 1: {
    #pragma omp parallel
    printf("one\n");
    break;
  }
  case 2:
  case 3:
    #pragma omp parallel
    switch (n) {
    case 0:
      break;
    default:
      #pragma omp atomic
      a[0] += 1.0;
    }
    break;
  default:
    #pragma omp parallel
    {
      #pragma omp single
      printf("default\n");
    }
  }
}
