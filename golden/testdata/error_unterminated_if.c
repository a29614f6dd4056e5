/* An #ifdef that never ends. */
#ifdef _OPENMP /* ERROR "unterminated conditional directive: no #endif before end of file" */
void f(int *x)
{
  #pragma omp parallel
  x[0] = 1;
}
