#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

/* sleep_ms sleeps: its time does not depend on how many cores are free. */
static void sleep_ms(long ms)
{
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
    ;
}

int main(void)
{
  /* Where it may (as root, or with CAP_SYS_NICE), the program runs at a
   * real-time priority, which the OpenMP runtime's threads inherit: it
   * sleeps nearly all the time, and on a loaded machine a sleeper that
   * wakes up then gets a core at once instead of after other jobs' time
   * slices, several milliseconds each. Elsewhere it runs as it is, and
   * says so. */
  struct sched_param rt = {.sched_priority = 1};
  if (sched_setscheduler(0, SCHED_FIFO, &rt) != 0)
    perror("scaleprog: no real-time priority, wake-ups may be late on a loaded machine");

  /* Every thread enters the critical section 8 times, and each entry
   * holds it for 20 ms: a visit costs t entries' time, linear in t. Long
   * entries keep the latency of waking up small beside them. */
  #pragma omp parallel
  for (int i = 0; i < 8; i++) {
    #pragma omp critical
    sleep_ms(20);
  }
  /* Every thread sleeps 20 ms in each of 6 regions: constant per visit. */
  for (int k = 0; k < 6; k++) {
    #pragma omp parallel
    sleep_ms(20);
  }
  printf("done\n");
  return 0;
}
