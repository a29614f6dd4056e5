/* Loops of 2^32 + 3 iterations in chunks of 2^31: a chunk boundary whose
 * iterations do not fit in 32 bits (4294967295 to 4294967296) takes
 * CHUNK_END and CHUNK_BEGIN records instead of one CHUNK_NEXT. The loop
 * variable starts at -5, so that values and iterations differ. */
#include <stdio.h>

int main(void)
{
  long long n = (1LL << 32) - 2, s = 0, j;
  #pragma omp parallel reduction(+:s)
  {
    #pragma omp for schedule(static, 1LL << 31) /* loop: static 4294967299 */
    for (long long i = -5; i < n; i++)
      s += i & 1;
    #pragma omp for schedule(dynamic, 1LL << 31) /* loop: dynamic 4294967299 */
    for (long long i = -5; i < n; i++)
      s += i & 1;
    #pragma omp for schedule(static, 1LL << 31) lastprivate(j) /* loop: hooked 4294967299 */
    for (j = -5; j < n; j++)
      s += j & 1;
  }
  printf("%lld\n", s);
  return 0;
}
