/* Tasks run in the closing barrier of a parallel region are charged to
 * the implicit task of the thread that runs them. Thread 0 creates a task
 * and waits for it, then creates one that runs 50 ms and ends its body
 * without waiting: that task runs in the closing barrier (or, where the
 * OpenMP runtime runs it at once, in the body). Every task notes the
 * thread that ran it, whether that thread had ended its body, and how
 * long it ran. The program prints, per thread, how many tasks suspended
 * its implicit task, and, per task, where and how long it ran. */
#include <stdio.h>
#include <omp.h>

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

static int ran[256];
static volatile int done[256];
static double end[256];

static void task(const char *name, double s)
{
  int me = omp_get_thread_num();
  int after = done[me];
  double t0 = omp_get_wtime();
  spin(s);
  double t1 = omp_get_wtime();
  #pragma omp atomic
  ran[me]++;
  #pragma omp critical
  printf("task %s thread %d after-body %d %.6f %.6f\n", name, me, after, t0, t1);
}

int main(void)
{
  int n = 1;
  #pragma omp parallel
  {
    int me = omp_get_thread_num();
    if (me == 0) {
      n = omp_get_num_threads();
      #pragma omp task
      task("waited", 0.001);
      #pragma omp taskwait
      #pragma omp task
      task("leftover", 0.05);
    }
    end[me] = omp_get_wtime();
    done[me] = 1;
  }
  double join = omp_get_wtime();
  for (int i = 0; i < n; i++)
    printf("thread %d ran %d end %.6f\n", i, ran[i], end[i]);
  printf("join %.6f\n", join);
  return 0;
}
