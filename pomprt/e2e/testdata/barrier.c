/* The closing barrier of a parallel region and of a parallel for: thread
 * 0 works for 200 ms, the others do nothing. Every thread notes when it
 * ends its body and the master when the region has joined; the program
 * prints each thread's wait in the closing barrier as it measured it. */
#include <stdio.h>
#include <omp.h>

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

static double end[256];
static int n;

static void report(const char *what, double join)
{
  for (int i = 0; i < n; i++)
    printf("%s %d %.6f\n", what, i, join - end[i]);
}

int main(void)
{
  #pragma omp parallel
  {
    #pragma omp single
    n = omp_get_num_threads();
    if (omp_get_thread_num() == 0)
      spin(0.2);
    end[omp_get_thread_num()] = omp_get_wtime();
  }
  report("parallel", omp_get_wtime());
  #pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    if (i == 0)
      spin(0.2);
    end[omp_get_thread_num()] = omp_get_wtime();
  }
  report("parallel-for", omp_get_wtime());
  return 0;
}
