#include <errno.h>
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
