// gopari: --chunks
/* --chunks with tasks created in the iterations: the chunk code declares
 * the loop's lower bound and step, which name the tasks' iterations too,
 * in strip-mined, hooked and counted loops. */
#include <omp.h>

void work(int);

void loops(int n)
{
  #pragma omp parallel
  {
    #pragma omp for schedule(static, 4)
    for (int i = 0; i < n; i += 2) {
      #pragma omp task
      work(i);
    }
    #pragma omp for schedule(guided)
    for (int i = 0; i < n; i++) {
      #pragma omp task
      work(i);
    }
    #pragma omp for
    for (int i = 0; i < n; i++) {
      #pragma omp task
      work(i);
    }
  }
}
