/* An #endif without its #if. */
void f(int *x)
{
  #pragma omp parallel
  x[0] = 1;
}
#endif /* ERROR "#endif without #if" */
