/* Tasks created in the iterations of worksharing loops: the creation
 * names its iteration (POMP_Task_create_begin_iter) where the task
 * construct is in the loop's body, with only critical, ordered,
 * taskgroup, master or masked between them; the loop's lower bound and
 * step are declared before its directive. */
#include <omp.h>

void work(int);
void spawn(int i);

void loops(int n, int *a)
{
  int j;
  #pragma omp parallel
  {
    #pragma omp for
    for (int i = 0; i < n; i++) {
      #pragma omp task firstprivate(i)
      work(i);
    }
    #pragma omp for schedule(dynamic, 4) nowait
    for (int i = n; i > 0; i -= 3)
      #pragma omp task
      work(i);
    #pragma omp for schedule(guided)
    for (j = 2; j <= n; j = j + 2) {
      for (int k = 0; k < 3; k++) {
        #pragma omp critical
        {
          #pragma omp task firstprivate(j, k)
          work(j + k);
        }
      }
      spawn(j); /* a task created by a call: no iteration */
    }
    #pragma omp for collapse(2)
    for (int x = 0; x < n; x++)
      for (int y = n; y > -n; y--) {
        #pragma omp taskgroup
        {
          #pragma omp task
          {
            #pragma omp task /* created by a task: no iteration */
            work(x + y);
          }
        }
      }
    #pragma omp for
    for (int i = 0; i < n; i++) {
      #pragma omp task
      work(i);
      int m = a[i] * i;
      for (int i = 0; i < m; i++) { /* hides the loop's i */
        #pragma omp task
        work(i);
      }
    }
    #pragma omp for
    for (int i = 0; i < n; i++) {
      #pragma omp parallel num_threads(2) /* another team */
      {
        #pragma omp task
        work(i);
      }
    }
  }
  #pragma omp parallel for schedule(static, 2)
  for (int *p = a; p < a + n; p++) {
    #pragma omp task
    work(*p);
  }
}
