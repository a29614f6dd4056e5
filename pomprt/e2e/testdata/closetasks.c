/* Tasks that run in the closing barrier of a parallel region: the most
 * common task pattern. One thread creates TASKS tasks of SPIN seconds in
 * a single nowait, master or single construct (argv[1]: nowait, master,
 * single) and goes on to the end of the region; the others, and then it
 * too, run the tasks there (in a single with its barrier, in that
 * barrier). Or the team runs them elsewhere: in a barrier construct after
 * the master created them (barrier), or the master in the end of the
 * taskgroup it created them in while the others run them in the closing
 * barrier (taskgroup). Every task adds the time it spun to its thread's busy time,
 * as the program's own clock measures it, and every thread notes when it
 * began the region's body. The program prints, per thread, its busy
 * time, how many tasks it ran and its time in the region (from the
 * beginning of its body to the join); the region's fork-to-join time;
 * and the run's time from the start of main to the end. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#define TASKS 48
#define SPIN 0.002

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

static double busy[256], enter[256];
static int ran[256];

static void work(void)
{
  int me = omp_get_thread_num();
  double t0 = omp_get_wtime();
  spin(SPIN);
  busy[me] += omp_get_wtime() - t0;
  ran[me]++;
}

int main(int argc, char **argv)
{
  double start = omp_get_wtime();
  const char *mode = argc > 1 ? argv[1] : "nowait";
  int n = 1;
  double fork = omp_get_wtime();
  if (!strcmp(mode, "nowait")) {
    #pragma omp parallel
    {
      enter[omp_get_thread_num()] = omp_get_wtime();
      #pragma omp single nowait
      {
        n = omp_get_num_threads();
        for (int i = 0; i < TASKS; i++) {
          #pragma omp task
          work();
        }
      }
    }
  } else if (!strcmp(mode, "master")) {
    #pragma omp parallel
    {
      enter[omp_get_thread_num()] = omp_get_wtime();
      #pragma omp master
      {
        n = omp_get_num_threads();
        for (int i = 0; i < TASKS; i++) {
          #pragma omp task
          work();
        }
      }
    }
  } else if (!strcmp(mode, "single")) {
    #pragma omp parallel
    {
      enter[omp_get_thread_num()] = omp_get_wtime();
      #pragma omp single
      {
        n = omp_get_num_threads();
        for (int i = 0; i < TASKS; i++) {
          #pragma omp task
          work();
        }
      }
    }
  } else if (!strcmp(mode, "barrier")) {
    #pragma omp parallel
    {
      enter[omp_get_thread_num()] = omp_get_wtime();
      #pragma omp master
      {
        n = omp_get_num_threads();
        for (int i = 0; i < TASKS; i++) {
          #pragma omp task
          work();
        }
      }
      #pragma omp barrier
    }
  } else {
    #pragma omp parallel
    {
      enter[omp_get_thread_num()] = omp_get_wtime();
      #pragma omp master
      {
        n = omp_get_num_threads();
        #pragma omp taskgroup
        {
          for (int i = 0; i < TASKS; i++) {
            #pragma omp task
            work();
          }
        }
      }
    }
  }
  double join = omp_get_wtime();
  for (int i = 0; i < n; i++)
    printf("thread %d busy %.9f ran %d in %.9f\n", i, busy[i], ran[i], join - enter[i]);
  printf("region %.9f\n", join - fork);
  printf("run %.9f\n", omp_get_wtime() - start);
  return 0;
}
