/* Loops whose chunks are known by construction (--chunks), each run
 * twice; loops whose clauses must keep their meaning; and a taskloop that
 * counts its own tasks. The tests find each loop by the word after
 * "loop:" on its directive's line, and its iteration count after it. */
#include <stdio.h>

static double a[4096];
static volatile double sink;

static void work(long i) { a[i % 4096] += (double)i * 0.5; }

int main(void)
{
  long sum = 0, lin = 0, last = -1, ordered = 0;
  int tasks = 0;
  for (int rep = 0; rep < 2; rep++) {
    #pragma omp parallel
    {
      #pragma omp for schedule(static, 7) /* loop: static7 1000 */
      for (int i = 0; i < 1000; i++)
        work(i);
      #pragma omp for schedule(dynamic, 5) /* loop: dynamic5 997 */
      for (int i = 0; i < 997; i++)
        work(i);
      #pragma omp for schedule(guided) /* loop: guided 2000 */
      for (int i = 0; i < 2000; i++)
        work(i);
      #pragma omp for /* loop: static 1001 */
      for (int i = 0; i < 1001; i++)
        work(i);
      #pragma omp for collapse(2) schedule(dynamic, 3) /* loop: collapse 851 */
      for (int i = 0; i < 37; i++)
        for (int j = 0; j < 23; j++)
          work(i * 23 + j);
      #pragma omp for schedule(runtime) /* loop: runtime 500 */
      for (long i = 0; i < 500; i++)
        work(i);
      /* Values: 10, 13, ... 307 downwards from 307: i = 307 - 3 * L. */
      #pragma omp for schedule(static, 4) /* loop: down4 100 */
      for (long i = 307; i >= 10; i -= 3)
        work(i);
      /* A loop without the declaration in its header, and unsigned. */
      unsigned u;
      #pragma omp for schedule(dynamic) /* loop: unsigned 64 */
      for (u = 0; u < 64; u++)
        work(u);
      /* Clauses that must keep their meaning. */
      #pragma omp for reduction(+: sum) lastprivate(last) schedule(static, 3) /* loop: reduction 300 */
      for (int i = 0; i < 300; i++) {
        sum += i;
        last = i;
      }
      #pragma omp for linear(lin: 2) schedule(static, 5) /* loop: linear 50 */
      for (int i = 0; i < 50; i++) {
        lin += 2;
        sink = lin;
      }
      #pragma omp for ordered schedule(dynamic, 2) /* loop: ordered 40 */
      for (int i = 0; i < 40; i++) {
        #pragma omp ordered
        ordered = ordered * 3 % 1000003 + i;
      }
      /* A taskloop that counts its own tasks: each gets a fresh copy
       * of first. */
      #pragma omp single
      {
        int first = 1;
        #pragma omp taskloop grainsize(7) firstprivate(first) shared(tasks) /* loop: taskloop 100 */
        for (int i = 0; i < 100; i++) {
          if (first) {
            first = 0;
            #pragma omp atomic
            tasks++;
          }
          work(i);
        }
      }
    }
  }
  printf("sum %ld last %ld lin %ld ordered %ld tasks %d a %g\n", sum, last, lin, ordered, tasks, a[17] + a[4000]);
  return 0;
}
