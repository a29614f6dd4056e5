/* One task region created from six parent regions: task region k creates
 * k children of the shared region, so the edge from parent k counts k. */
#include <stdio.h>
#include <omp.h>

static long total;

static void child(void)
{
  #pragma omp task
  {
    #pragma omp atomic
    total++;
  }
}

static void make(int k)
{
  for (int i = 0; i < k; i++)
    child();
}

int main(void)
{
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task
    make(1);
    #pragma omp task
    make(2);
    #pragma omp task
    make(3);
    #pragma omp task
    make(4);
    #pragma omp task
    make(5);
    #pragma omp task
    make(6);
  }
  printf("children %ld\n", total);
  return 0;
}
