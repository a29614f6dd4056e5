/* A directive directly followed by the closing brace of its block. */
void empty(void)
{
  #pragma omp single
} /* ERROR "expected a statement after '#pragma omp single', found '\}'" */
