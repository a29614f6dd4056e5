/* Backslash-newline in odd places: inside identifiers, keywords,
 * numbers, strings, comments and directives. */
#include <stdio.h>
#include <omp.h>

#define GREETING "hello, \
{ world"

int splice(int n, omp_lock_t *lock)
{
  int to\
tal = 0;
  #pra\
gma omp par\
allel for reduc\
tion(+: total)
  f\
or (int i = 0; i < n; i++)
    total += 1\
0;
  #pragma omp parallel num_threads(2)
  {
    puts("a string \
continued over a line { ");
    /\
* a comment opened across a splice *\
/
    omp_set_\
lock(lock);
    omp_unset_lock(lock);
    puts(GREETING);
  }
  return total;
}
