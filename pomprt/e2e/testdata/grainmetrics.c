/* Grain metrics on programs of known shape, by the first argument:
 *   tiny      tasks that do nothing: they cost more to create than they run
 *             (a taskwait every 32 keeps libgomp from running them at once,
 *             undeferred, as it does once its queue is long: an undeferred
 *             empty task's creation and execution both last about one clock
 *             read, at the resolution of some CPUs' TSC, 10 ns steps on an
 *             AMD EPYC guest, so their ratio says nothing);
 *   inflate   tasks whose work grows with the number of threads, as the
 *             work of tasks that contend for a cache line or a lock grows
 *             (here by construction, whatever the machine's caches and
 *             load): each spins the square of the team's size times more;
 *   balanced  the same tasks, with the same work at any team size;
 *   skewed    a static loop whose iterations cost more and more: its
 *             threads' chunks are imbalanced;
 *   uniform   the same loop with iterations of equal cost. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define TASKS 200
#define SPIN 40000

static volatile double sink;

static void spin(long n)
{
  double x = 0;
  for (long i = 0; i < n; i++)
    x += (double)i * 1e-9;
  sink = x;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "tiny";
  int grow = !strcmp(mode, "inflate");
  #pragma omp parallel
  #pragma omp single
  {
    if (!strcmp(mode, "tiny")) {
      for (int i = 0; i < 20000; i++) {
        #pragma omp task
        { }
        if (i % 32 == 31) {
          #pragma omp taskwait
        }
      }
    } else if (grow || !strcmp(mode, "balanced")) {
      for (int t = 0; t < TASKS; t++) {
        #pragma omp task firstprivate(grow)
        spin(grow ? (long)SPIN * omp_get_num_threads() * omp_get_num_threads() : SPIN);
      }
    }
  }
  if (!strcmp(mode, "skewed") || !strcmp(mode, "uniform")) {
    int skewed = !strcmp(mode, "skewed");
    #pragma omp parallel
    for (int rep = 0; rep < 20; rep++) {
      #pragma omp for schedule(static)
      for (int i = 0; i < 64; i++)
        spin(skewed ? 200L * (i + 1) : 6500L);
    }
  }
  printf("%s\n", mode);
  return 0;
}
