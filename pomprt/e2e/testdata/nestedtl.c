/* Taskloop tasks that the workers of nested teams run in the closing
 * barrier: two threads each fork ROUNDS teams of three, one after the
 * other; in every team the master creates a nogroup taskloop and goes on
 * to the end of the region, so that the team runs the tasks in the
 * closing barrier, after which no event of a worker follows until a
 * later team recruits it. The workers of one thread's teams are taken
 * up by the other's (libomp keeps them in one pool), so that a place in
 * the team tree (0.0.1, say) is another thread's in a later team while
 * the thread that left it has not yet seen the end of its last task
 * there; and at the end of the run, threads are left with such tasks of
 * teams that joined long ago. The program counts the iterations and
 * prints them with the tasks it expects. */
#include <stdio.h>
#include <omp.h>

#define ROUNDS 16
#define TASKS 4
#define ITERS 8

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

int main(void)
{
  int count = 0;
  omp_set_max_active_levels(2);
  #pragma omp parallel num_threads(2)
  for (int r = 0; r < ROUNDS; r++) {
    #pragma omp parallel num_threads(3)
    {
      #pragma omp master
      {
        #pragma omp taskloop num_tasks(TASKS) nogroup
        for (int k = 0; k < ITERS; k++) {
          spin(0.001);
          #pragma omp atomic
          count++;
        }
      }
    }
  }
  printf("iterations %d tasks %d\n", count, 2 * ROUNDS * TASKS);
  return 0;
}
