/* Tasks run in the closing barrier of a parallel region are charged to
 * the implicit task of the thread that runs them. Thread 0 creates a task
 * and waits for it, then creates one that runs 50 ms and ends its body
 * without waiting: that task runs in the closing barrier (or, where the
 * OpenMP runtime runs it at once, in the body). Every task notes the
 * thread that ran it, whether that thread had ended its body, and when it
 * started and ended. The program prints, per thread, how many tasks
 * suspended its implicit task and when it ended its body, per task where
 * and when it ran, and when the region had joined. */
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
static struct {
  const char *name;
  int thread, after;
  double t0, t1;
} runs[2];

static void task(int k, const char *name, double s)
{
  int me = omp_get_thread_num();
  int after = done[me];
  double t0 = omp_get_wtime();
  spin(s);
  #pragma omp atomic
  ran[me]++;
  runs[k].name = name;
  runs[k].thread = me;
  runs[k].after = after;
  runs[k].t0 = t0;
  runs[k].t1 = omp_get_wtime();
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
      task(0, "waited", 0.001);
      #pragma omp taskwait
      #pragma omp task
      task(1, "leftover", 0.05);
    }
    end[me] = omp_get_wtime();
    done[me] = 1;
  }
  double join = omp_get_wtime();
  for (int k = 0; k < 2; k++)
    printf("task %s thread %d after-body %d %.6f %.6f\n", runs[k].name, runs[k].thread, runs[k].after, runs[k].t0, runs[k].t1);
  for (int i = 0; i < n; i++)
    printf("thread %d ran %d end %.6f\n", i, ran[i], end[i]);
  printf("join %.6f\n", join);
  return 0;
}
