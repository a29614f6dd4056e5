/* The closing barrier of a parallel region, a parallel for and a parallel
 * sections: one thread works for 200 ms, the others do nothing. Every
 * thread notes when it ends its body and the master when the region has
 * joined; the program prints each thread's wait in the closing barrier as
 * it measured it. In parallel sections a thread that runs no section
 * notes nothing: it ended its body after the region began, whenever it
 * arrived, and the program prints the longest its wait can be, marked
 * "max". */
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
    printf("%s %d %.6f%s\n", what, i, join - (end[i] < 0 ? -end[i] : end[i]), end[i] < 0 ? " max" : "");
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
  double t0 = omp_get_wtime();
  for (int i = 0; i < n; i++)
    end[i] = -t0;
  #pragma omp parallel sections
  {
    #pragma omp section
    {
      spin(0.2);
      end[omp_get_thread_num()] = omp_get_wtime();
    }
    #pragma omp section
    end[omp_get_thread_num()] = omp_get_wtime();
  }
  report("parallel-sections", omp_get_wtime());
  return 0;
}
