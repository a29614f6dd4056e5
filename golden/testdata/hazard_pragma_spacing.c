/* Directives with odd spacing: blanks and tabs around the #, between
 * the words and inside clauses, and the %: digraph. */
#include <stdio.h>

void spacing(int n, int *v)
{
#  pragma   omp   parallel	  for	schedule( static ,	4 )  
  for (int i = 0; i < n; i++)
    v[i] = i;
	#	pragma	omp	parallel
  {
      #pragma omp single   nowait
    printf("single\n");
    #pragma omp   cancellation    point   parallel
  }
  %: pragma omp parallel num_threads( 2 )
  v[0]++;
  # /* a comment before the name */ pragma omp barrier
}
