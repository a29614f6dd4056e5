// differs clang * /no_threads|pomp_thread|POMP_Thread|errors generated/: clang corrects the misspelt no_threads to pomp_thread, a name that pomp.h declares, and goes on with it; the compiler alone knows no such name
/* Errors inside the clauses of directives, on lines with tabs and runs
 * of spaces before the error. */
int clauses(int n, int *a)
{
  int s = 0;
  #pragma omp parallel
  {
    #pragma omp task private(nosuch)
    s++;
	#pragma    omp   task  firstprivate(undeclared_fp)   if(n > 1)
    s++;
  }
  #pragma omp parallel for schedule(bogus) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += a[i];
  #pragma omp parallel
  {
  	  #pragma omp for  schedule(nonsense)   nowait
    for (int i = 0; i < n; i++)
      a[i] = 0;
  }
  #pragma omp parallel num_threads(no_threads) \
      if(n > 2)
  s++;
  return s;
}
