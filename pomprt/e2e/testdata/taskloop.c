/* Taskloops whose generated tasks the program counts itself: each task
 * receives a fresh copy of a firstprivate flag and counts itself at its
 * first iteration. Prints the counts and results, which do not depend on
 * the number of threads; the test compares the counts with the profile.
 *
 *   body:      num_tasks(4) over 64 iterations, a task per iteration
 *   grain:     grainsize(7) over 100 iterations
 *   collapse:  collapse(2) grainsize(5) over 9 x 11 iterations
 *   reduction: reduction(+) num_tasks(6) over 1000 iterations
 *   last:      lastprivate, nogroup and untied, for their meaning
 *   in_reduction and a parallel region inside a taskloop body, for
 *   their meaning (the test checks the inner implicit tasks' parents) */
#include <stdio.h>
#include <omp.h>

int main(void)
{
  long body = 0, grain = 0, coll = 0, red = 0, sum = 0, inner = 0;
  long lastval = -1, grouped = 0, untied = 0, inred = 0, nested = 0;
  int cells[9][11] = {{0}};
  #pragma omp parallel
  #pragma omp single
  {
    int first = 1;
    #pragma omp taskloop num_tasks(4) firstprivate(first)
    for (int i = 0; i < 64; i++) {
      if (first) {
        first = 0;
        #pragma omp atomic
        body++;
      }
      #pragma omp task shared(inner) firstprivate(i)
      {
        #pragma omp atomic
        inner += i;
      }
    }
    #pragma omp taskloop grainsize(7) firstprivate(first)
    for (long i = 0; i < 100; i++)
      if (first) {
        first = 0;
        #pragma omp atomic
        grain++;
      }
    #pragma omp taskloop collapse(2) grainsize(5) firstprivate(first) shared(cells)
    for (int i = 0; i < 9; i++)
      for (int j = 0; j < 11; j++) {
        if (first) {
          first = 0;
          #pragma omp atomic
          coll++;
        }
        cells[i][j] = i * 11 + j;
      }
    #pragma omp taskloop num_tasks(6) reduction(+: sum) firstprivate(first)
    for (int i = 0; i < 1000; i++) {
      if (first) {
        first = 0;
        #pragma omp atomic
        red++;
      }
      sum += i;
    }
    int k;
    #pragma omp taskloop grainsize(10) lastprivate(k)
    for (k = 0; k < 50; k++)
      ;
    lastval = k;
    #pragma omp taskloop num_tasks(3) nogroup shared(grouped)
    for (int i = 0; i < 30; i++) {
      #pragma omp atomic
      grouped += i;
    }
    #pragma omp taskwait
    #pragma omp taskloop num_tasks(2) untied shared(untied)
    for (int i = 0; i < 10; i++) {
      #pragma omp atomic
      untied += i;
    }
    #pragma omp taskgroup task_reduction(+: inred)
    {
      #pragma omp taskloop num_tasks(3) in_reduction(+: inred)
      for (int i = 0; i < 30; i++)
        inred += i;
    }
    #pragma omp taskloop num_tasks(2) shared(nested)
    for (int i = 0; i < 2; i++) {
      #pragma omp parallel num_threads(2)
      {
        #pragma omp atomic
        nested++;
      }
    }
  }
  long cellsum = 0;
  for (int i = 0; i < 9; i++)
    for (int j = 0; j < 11; j++)
      cellsum += cells[i][j];
  printf("tasks: body %ld grain %ld collapse %ld reduction %ld\n", body, grain, coll, red);
  printf("inner %ld sum %ld cells %ld last %ld nogroup %ld untied %ld in_reduction %ld\n", inner, sum, cellsum, lastval, grouped, untied, inred);
  printf("nested %s\n", nested >= 2 ? "ok" : "missing");
  return 0;
}
