/* Taskloop tasks that the workers run in the closing barrier of the last
 * parallel region of the run: one thread encounters two taskloops of
 * TASKS tasks each in a master construct (the first with its loop
 * variable declared in the loop header, the second outside it) and goes
 * on to the end of the region; with nogroup, the encountering thread does
 * not wait, so that the workers, and it too, run the tasks in the
 * closing barrier, after which no event of theirs follows. The program
 * counts the iterations and prints them with the tasks it expects. */
#include <stdio.h>
#include <omp.h>

#define TASKS 8
#define ITERS 64

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

int main(void)
{
  int count = 0, i;
  #pragma omp parallel
  {
    #pragma omp master
    {
      #pragma omp taskloop num_tasks(TASKS) nogroup
      for (int k = 0; k < ITERS; k++) {
        spin(0.0001);
        #pragma omp atomic
        count++;
      }
      #pragma omp taskloop num_tasks(TASKS) nogroup
      for (i = 0; i < ITERS; i++) {
        spin(0.0001);
        #pragma omp atomic
        count++;
      }
    }
  }
  printf("iterations %d tasks %d\n", count, 2 * TASKS);
  return 0;
}
