/* cancel and cancellation point for for, sections, parallel and
 * taskgroup: the implicit barriers are kept and end events come from
 * cleanup handlers. */
#include <stdio.h>

int search(const int *v, int n, int key)
{
  int found = -1;
  #pragma omp parallel shared(found)
  {
    #pragma omp for
    for (int i = 0; i < n; i++) {
      if (v[i] == key) {
        found = i;
        #pragma omp cancel for
      }
      #pragma omp cancellation point for
    }
    #pragma omp sections
    {
      #pragma omp section
      {
        if (found < 0) {
          #pragma omp cancel sections if(n > 0)
        }
      }
      #pragma omp section
      {
        #pragma omp cancellation point sections
        printf("second\n");
      }
    }
    if (found >= 0) {
      #pragma omp cancel parallel
    }
    #pragma omp cancellation point parallel
    #pragma omp single
    {
      #pragma omp taskgroup
      {
        for (int i = 0; i < n; i++) {
          #pragma omp task firstprivate(i)
          {
            if (v[i] == -key) {
              #pragma omp cancel taskgroup
            }
            #pragma omp cancellation point taskgroup
            printf("%d\n", i);
          }
        }
      }
    }
  }
  return found;
}
