/* The error directive (OpenMP 5.1): GCC 12 implements it, clang 14 does
 * not and says so. */
#pragma omp error at(compilation) severity(warning) message("at file scope")

int omperror(int n)
{
  int s = 0;
  #pragma omp parallel
  {
      #pragma omp error severity(warning) message("in a parallel region")
    s += n;
  }
  return s;
}
