/* The file ends without a newline, right after a construct. */
int counter;

void bump(void)
{
  #pragma omp parallel
  #pragma omp atomic
  counter++;
}

void last(void)
{
  #pragma omp parallel
  counter--;
#pragma omp barrier
}