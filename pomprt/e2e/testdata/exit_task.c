/* exit() from inside an explicit task, and, with an argument, from inside
 * a nested parallel region: the profile must still be written and the
 * exit status kept. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(int argc, char **argv)
{
  int nested = argc > 1;
  omp_set_max_active_levels(2);
  #pragma omp parallel num_threads(2)
  {
    if (!nested) {
      #pragma omp single
      {
        #pragma omp task
        {
          printf("leaving from a task\n");
          fflush(stdout);
          exit(5);
        }
      }
    } else {
      #pragma omp parallel num_threads(2)
      {
        #pragma omp barrier
        if (omp_get_thread_num() == 1 && omp_get_ancestor_thread_num(1) == 1) {
          printf("leaving from a nested region\n");
          fflush(stdout);
          exit(6);
        }
        #pragma omp barrier
      }
    }
    #pragma omp barrier
  }
  printf("not reached\n");
  return 0;
}
