/* Untied tasks that create tasks, wait and yield: LLVM's libomp may
 * continue them on another thread after each of those scheduling points.
 * Prints the counts, which do not depend on the run, and on stderr how
 * many tasks moved. */
#include <stdio.h>
#include <omp.h>

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

int main(void)
{
  long total = 0, moved = 0;
  #pragma omp parallel
  #pragma omp single
  for (int i = 0; i < 100; i++) {
    #pragma omp task untied shared(total, moved)
    {
      int a = omp_get_thread_num();
      for (int j = 0; j < 3; j++) {
        #pragma omp task shared(total)
        {
          spin(20e-6);
          #pragma omp atomic
          total++;
        }
      }
      int b = omp_get_thread_num();
      #pragma omp taskwait
      int c = omp_get_thread_num();
      #pragma omp taskyield
      int d = omp_get_thread_num();
      if (a != b || b != c || c != d) {
        #pragma omp atomic
        moved++;
      }
    }
  }
  printf("children %ld\n", total);
  fprintf(stderr, "moved %ld\n", moved);
  return 0;
}
