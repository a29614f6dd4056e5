/* Untied tasks that create tasks, wait and yield: LLVM's libomp may
 * continue them on another thread after each of those scheduling points.
 * Each untied task works 3 x 200 us around them and times that work
 * itself, and notes its thread after every scheduling point, counting
 * the changes. Prints the counts, which do not depend on the run; on
 * stderr the tasks that moved, their moves, the minimum, maximum and
 * total of the tasks' own work, and of their time from start to end, and
 * the total time of the child tasks' creations (the task constructs, as
 * the creating task measured them), in seconds. */
#include <stdio.h>
#include <omp.h>

static double spin(double s)
{
  double t = omp_get_wtime(), now;
  while ((now = omp_get_wtime()) - t < s)
    ;
  return now - t;
}

static double work[100], span[100], create[100];
static int moves[100];

/* moved counts a change of thread since *at. */
static void moved(int *at, int *n)
{
  int me = omp_get_thread_num();
  if (me != *at) {
    *at = me;
    ++*n;
  }
}

int main(void)
{
  long total = 0;
  #pragma omp parallel
  #pragma omp single
  for (int i = 0; i < 100; i++) {
    #pragma omp task untied shared(total, work, moves, create) firstprivate(i)
    {
      int at = omp_get_thread_num(), n = 0;
      double t0 = omp_get_wtime();
      double w = spin(200e-6);
      for (int j = 0; j < 3; j++) {
        double c0 = omp_get_wtime();
        #pragma omp task shared(total)
        {
          spin(20e-6);
          #pragma omp atomic
          total++;
        }
        create[i] += omp_get_wtime() - c0;
        moved(&at, &n);
      }
      w += spin(200e-6);
      #pragma omp taskwait
      moved(&at, &n);
      #pragma omp taskyield
      moved(&at, &n);
      w += spin(200e-6);
      work[i] = w;
      moves[i] = n;
      span[i] = omp_get_wtime() - t0;
    }
  }
  int tasks = 0, all = 0;
  double lo = 1e9, hi = 0, sum = 0, slo = 1e9, shi = 0, ssum = 0, csum = 0;
  for (int i = 0; i < 100; i++) {
    tasks += moves[i] > 0;
    all += moves[i];
    lo = work[i] < lo ? work[i] : lo;
    hi = work[i] > hi ? work[i] : hi;
    sum += work[i];
    slo = span[i] < slo ? span[i] : slo;
    shi = span[i] > shi ? span[i] : shi;
    ssum += span[i];
    csum += create[i];
  }
  printf("children %ld\n", total);
  fprintf(stderr, "moved %d moves %d work %.6f %.6f %.6f span %.6f %.6f %.6f create %.9f\n", tasks, all, lo, hi, sum, slo, shi, ssum, csum);
  return 0;
}
