/* A directive with nothing after it. */
int x;
#pragma omp parallel /* ERROR "expected a statement after '#pragma omp parallel', found end of file" */
