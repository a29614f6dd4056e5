/* task: if, final, untied, mergeable, depend, priority, detach and
 * affinity. */
#include <omp.h>

int fib(int n)
{
  int a, b;
  if (n < 2)
    return n;
  #pragma omp task shared(a) if(n > 20) final(n < 10) mergeable
  a = fib(n - 1);
  #pragma omp task shared(b) untied priority(1) /* NOTE "1 'untied' clause removed" */
  b = fib(n - 2);
  #pragma omp taskwait
  return a + b;
}

void pipeline(int *buf, int n)
{
  omp_event_handle_t ev;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task depend(out: buf[0]) affinity(buf[0:n])
    for (int i = 0; i < n; i++)
      buf[i] = i;
    #pragma omp task depend(inout: buf[0]) depend(in: n) priority(2)
    {
      buf[0] += n;
    }
    #pragma omp task detach(ev) depend(mutexinoutset: buf[1])
    buf[1] = 0;
    omp_fulfill_event(ev);
    #pragma omp task if(0) firstprivate(n)
    buf[n - 1] = -1;
  }
}
