/* A structured block whose braces do not balance. */
void unbalanced(int n, int *v)
{
  #pragma omp parallel
  { /* ERROR "unbalanced '\{': no matching '\}' before end of file" */
    for (int i = 0; i < n; i++) {
      v[i] = i;
  }
