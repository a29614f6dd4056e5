/* 64 threads, however many cores: every construct kind in one team,
 * with a result that does not depend on scheduling. */
#include <stdio.h>
#include <omp.h>

int main(void)
{
  long sum = 0, crit = 0, tasks = 0, single = 0;
  int team = 0;
  #pragma omp parallel num_threads(64) reduction(+: sum)
  {
    #pragma omp master
    team = omp_get_num_threads();
    for (int r = 0; r < 20; r++) {
      #pragma omp for schedule(dynamic, 3)
      for (int i = 0; i < 640; i++)
        sum += i % 7;
      #pragma omp critical
      crit++;
      #pragma omp single
      {
        single++;
        for (int k = 0; k < 32; k++) {
          #pragma omp task
          {
            #pragma omp atomic
            tasks++;
          }
        }
      }
      #pragma omp barrier
    }
  }
  printf("team %d sum %ld critical %ld single %ld tasks %ld\n", team, sum, crit, single, tasks);
  return 0;
}
