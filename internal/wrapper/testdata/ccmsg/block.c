/* An error and warnings inside the structured blocks of directives, on
 * lines with tabs and runs of spaces before them. */
#include <stdio.h>

int block(int n, int *a)
{
  int s = 0;
  #pragma omp parallel
  {
    int   unused_in_parallel;
	 	int k = s   +   undeclared_in_block;
    #pragma omp for
    for (int i = 0; i < n; i++) { unsigned u = i;   if (u < 0) a[i] = 0; }
    #pragma omp single
    printf("%d\n",    s,    k);
  }
  #pragma omp task
  {   int   shadow = n; (void)shadow; s +=   a[0] == a[0] ? 1 : 2 }
  #pragma omp taskwait
  return s;
}
