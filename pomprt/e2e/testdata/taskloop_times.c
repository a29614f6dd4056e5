/* Taskloop tasks that time themselves: every generated task notes when
 * its first iteration starts and its last one ends, and which logical
 * iterations it ran. After its last iteration a thread has nothing to do
 * for a while (it waits in a barrier, or the encountering thread spins
 * past a nogroup taskloop), so a task end seen late would show. Prints,
 * per task, "task LOOP FIRST ITERATIONS SECONDS" with the logical number
 * of its first iteration, and per loop "loop LOOP ITERATIONS". The
 * variables of loops 5 and 7 are declared outside their headers: the
 * compiler checks their type for gopari. */
#include <stdio.h>
#include <omp.h>

static struct {
  int loop;
  long first, n;
  double t0, t1;
} rec[1024];
static int nrec;

static void spin(double s)
{
  double t = omp_get_wtime();
  while (omp_get_wtime() - t < s)
    ;
}

/* note starts an iteration of the task whose record is *tag (-1 before
 * its first iteration). */
static void note(int *tag, int loop, long logical)
{
  double t = omp_get_wtime();
  if (*tag < 0) {
    int k;
    #pragma omp atomic capture
    k = nrec++;
    *tag = k;
    rec[k].loop = loop;
    rec[k].first = logical;
    rec[k].t0 = t;
  }
  rec[*tag].n++;
}

/* work spins the time of iteration logical, and notes its end. */
static void work(int tag, long logical)
{
  spin(logical % 7 == 0 ? 0.003 : 0.0002);
  rec[tag].t1 = omp_get_wtime();
}

int main(void)
{
  #pragma omp parallel
  #pragma omp single
  {
    int tag = -1;
    #pragma omp taskloop num_tasks(3) firstprivate(tag)
    for (int i = 0; i < 30; i++) {
      note(&tag, 0, i);
      work(tag, i);
    }
    #pragma omp taskloop grainsize(4) firstprivate(tag)
    for (int i = 24; i >= 0; i--) {
      note(&tag, 1, 24 - i);
      work(tag, 24 - i);
    }
    #pragma omp taskloop collapse(2) num_tasks(4) firstprivate(tag)
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 6; j++) {
        note(&tag, 2, i * 6 + j);
        work(tag, i * 6 + j);
      }
    #pragma omp taskloop num_tasks(2) nogroup firstprivate(tag)
    for (long i = 0; i < 4; i++) {
      note(&tag, 3, i);
      work(tag, i);
    }
    spin(0.1);
    #pragma omp taskwait
    #pragma omp taskloop firstprivate(tag)
    for (unsigned u = 2; u < 120; u += 3) {
      note(&tag, 4, (u - 2) / 3);
      work(tag, (u - 2) / 3);
    }
    int k;
    #pragma omp taskloop num_tasks(2) firstprivate(tag)
    for (k = 0; k < 10; k++) {
      note(&tag, 5, k);
      work(tag, k);
    }
  }
  /* Loops 6 and 7: nogroup tasks that the barrier gcc adds before a loop
   * with a firstprivate and lastprivate variable runs, no instrumented
   * code between their end and the loop's. Loop 7's variable is declared
   * outside its header. */
  long x = 0;
  #pragma omp parallel
  {
    int tag = -1, m;
    #pragma omp master taskloop num_tasks(3) nogroup firstprivate(tag)
    for (int i = 0; i < 6; i++) {
      note(&tag, 6, i);
      work(tag, i);
    }
    #pragma omp for firstprivate(x) lastprivate(x)
    for (int j = 0; j < 4; j++) {
      spin(0.02);
      x += j;
    }
    #pragma omp master taskloop num_tasks(2) nogroup firstprivate(tag)
    for (m = 0; m < 4; m++) {
      note(&tag, 7, m);
      work(tag, m);
    }
    #pragma omp for firstprivate(x) lastprivate(x)
    for (int j = 0; j < 4; j++) {
      spin(0.02);
      x += j;
    }
  }
  long total[8] = {0};
  for (int k = 0; k < nrec; k++) {
    printf("task %d %ld %ld %.6f\n", rec[k].loop, rec[k].first, rec[k].n, rec[k].t1 - rec[k].t0);
    total[rec[k].loop] += rec[k].n;
  }
  for (int l = 0; l < 8; l++)
    printf("loop %d %ld\n", l, total[l]);
  return 0;
}
