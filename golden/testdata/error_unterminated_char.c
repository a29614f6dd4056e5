int brace(void)
{
  /* ERROR "unterminated character constant" */ char c = '{;
  #pragma omp parallel
  c++;
  return c;
}
