/* Every construct issue 13's trace must count exactly: recursive tasks
 * with taskwait, undeferred tasks, a taskgroup, a taskloop, a nested
 * parallel region, OpenMP locks and a critical section. The output does
 * not depend on the number of threads. */
#include <stdio.h>
#include <omp.h>

static long fib(int n)
{
  long x = 0, y = 0;
  if (n < 2)
    return n;
  #pragma omp task shared(x) firstprivate(n)
  x = fib(n - 1);
  #pragma omp task shared(y) firstprivate(n) if(n > 6)
  y = fib(n - 2);
  #pragma omp taskwait
  return x + y;
}

int main(void)
{
  long f = 0, group = 0, loop = 0, nested = 0, locked = 0, critical = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
  #pragma omp parallel
  {
    #pragma omp single
    {
      f = fib(15);
      #pragma omp taskgroup
      {
        for (int i = 0; i < 6; i++) {
          #pragma omp task shared(group) firstprivate(i)
          {
            #pragma omp atomic
            group += i;
          }
        }
      }
      #pragma omp taskloop grainsize(8) shared(loop)
      for (int i = 0; i < 100; i++) {
        #pragma omp atomic
        loop += i;
      }
    }
    #pragma omp parallel num_threads(2) shared(nested)
    {
      #pragma omp atomic
      nested++;
    }
    for (int i = 0; i < 10; i++) {
      omp_set_lock(&lock);
      locked++;
      omp_unset_lock(&lock);
      #pragma omp critical (sum)
      critical++;
    }
  }
  omp_destroy_lock(&lock);
  int t = omp_get_max_threads();
  printf("fib %ld group %ld loop %ld nested %ld locked %ld critical %ld\n", f, group, loop,
         nested / t, locked / t, critical / t);
  return 0;
}
