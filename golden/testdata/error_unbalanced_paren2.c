/* A closing bracket of the wrong kind inside a structured block. */
void mismatch(int n, int *v)
{
  #pragma omp parallel
  {
    v[(n] = 0; /* ERROR "unbalanced '\(': found '\]' at 6:9 before its '\)'" */
  }
}
