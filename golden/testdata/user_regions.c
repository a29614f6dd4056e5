/* OPARI's user regions: #pragma pomp inst begin/end/altend, and the
 * init, on and off controls. */
#include <stdio.h>

static int solve(int n)
{
  #pragma pomp inst begin(solve)
  if (n < 0) {
    #pragma pomp inst altend(solve)
    return -1;
  }
  int r = 0;
  #pragma omp parallel for reduction(+: r)
  for (int i = 0; i < n; i++) {
    #pragma pomp inst begin(body)
    r += i;
    #pragma pomp inst end(body)
  }
  #pragma pomp inst end(solve)
  return r;
}

int main(void)
{
  #pragma pomp inst init
  #pragma pomp inst off
  printf("%d\n", solve(-1));
  #pragma pomp inst on
  printf("%d\n", solve(10));
  return 0;
}
