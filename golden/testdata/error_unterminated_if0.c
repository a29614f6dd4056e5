/* An #if 0 that never ends. */
void f(int *x)
{
  x[0] = 0;
}
#if 0 /* ERROR "unterminated conditional directive: no #endif before end of file" */
void g(void) { }
