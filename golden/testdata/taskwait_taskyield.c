/* taskwait (plain and with depend) and taskyield. GCC 12 rejects
 * "taskwait nowait", so it is not here. */
#include <stdio.h>

void produce(int *x, int *y)
{
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(out: x[0])
    x[0] = 1;
    #pragma omp task depend(out: y[0])
    y[0] = 2;
    #pragma omp taskwait depend(in: x[0])
    printf("x = %d\n", x[0]);
    #pragma omp taskyield
    #pragma omp taskwait
    printf("y = %d\n", y[0]);
  }
}
