/* The shapes whose OTF2 definitions and task identities the export must
 * get right (issue 23): combined constructs, tasks the initial thread
 * creates outside any parallel region after one, a taskloop that every
 * thread of a team encounters, one whose tasks the team shares, a
 * combined parallel master taskloop, and tasks in nested teams. Every task says on stderr, as
 * "task LINE CREATOR EXECUTOR", the line of its construct, the team-tree
 * path (0, 0.1, 0.1.0) of the thread that created it (for a taskloop's
 * task, the thread that encountered the taskloop) and of the thread that
 * ran it. stdout says what the program computed, whatever the schedule. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#define MAXTASKS 1024

static struct {
  int line;
  char creator[32], executor[32];
} seen[MAXTASKS];
static int nseen;
static long total;

/* path writes the team-tree path of the calling thread's ancestor at
 * level upto (its own: omp_get_level()). */
static void path(char *buf, int upto)
{
  int n = sprintf(buf, "0");
  for (int l = 1; l <= upto; l++)
    n += sprintf(buf + n, ".%d", omp_get_ancestor_thread_num(l));
}

/* record notes a task of the construct at line, created by creator,
 * running on the calling thread. */
static void record(int line, const char *creator)
{
  int i;
  #pragma omp atomic capture
  i = nseen++;
  if (i >= MAXTASKS)
    return;
  seen[i].line = line;
  strcpy(seen[i].creator, creator);
  path(seen[i].executor, omp_get_level());
  #pragma omp atomic
  total++;
}

int main(void)
{
  long sum = 0;
  char me[32];

  /* A first team, forked by the initial thread: its team is used before
   * the initial thread's own. */
  #pragma omp parallel for reduction(+: sum)
  for (int i = 0; i < 100; i++)
    sum += i;

  /* Tasks of the initial thread, outside any parallel region. */
  path(me, omp_get_level());
  for (int k = 0; k < 3; k++) {
    #pragma omp task firstprivate(me)
    record(__LINE__ - 1, me);
  }
  #pragma omp taskwait

  #pragma omp parallel sections reduction(+: sum)
  {
    #pragma omp section
    sum += 1;
    #pragma omp section
    sum += 2;
  }

  /* A taskloop that every thread of the team encounters: each creates
   * the four tasks of its own. */
  #pragma omp parallel
  {
    char enc[32];
    path(enc, omp_get_level());
    #pragma omp taskloop num_tasks(4) firstprivate(enc)
    for (int i = 0; i < 4; i++)
      record(__LINE__ - 2, enc);
  }

  /* A taskloop that one thread creates and the team runs: its tasks
   * take a millisecond, and the threads waiting at the single's barrier
   * take some of them. */
  #pragma omp parallel
  #pragma omp single
  {
    char enc[32];
    path(enc, omp_get_level());
    #pragma omp taskloop num_tasks(8) firstprivate(enc)
    for (int i = 0; i < 8; i++) {
      double t0 = omp_get_wtime();
      while (omp_get_wtime() - t0 < 1e-3)
        ;
      record(__LINE__ - 5, enc);
    }
  }

  /* The master thread of the new team creates the tasks: thread 0 of
   * the team the executing thread belongs to. */
  #pragma omp parallel master taskloop num_tasks(6)
  for (int i = 0; i < 6; i++) {
    char master[32];
    path(master, omp_get_level() - 1);
    strcat(master, ".0");
    record(__LINE__ - 5, master);
  }

  /* Nested teams: each thread of each inner team creates a task. */
  #pragma omp parallel num_threads(2)
  {
    #pragma omp parallel num_threads(2)
    {
      char c[32];
      path(c, omp_get_level());
      #pragma omp task firstprivate(c)
      record(__LINE__ - 1, c);
    }
  }

  int n = nseen < MAXTASKS ? nseen : MAXTASKS;
  for (int i = 0; i < n; i++)
    fprintf(stderr, "task %d %s %s\n", seen[i].line, seen[i].creator, seen[i].executor);
  printf("sum %ld, %s\n", sum, nseen < MAXTASKS ? "every task seen" : "too many tasks");
  return 0;
}
