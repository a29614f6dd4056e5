// gopari: --untied=keep
/* With --untied=keep an untied task stays untied, and its region says so. */
int tree(int depth)
{
  int l = 0, r = 0;
  if (depth == 0)
    return 1;
  #pragma omp task shared(l) untied
  l = tree(depth - 1);
  #pragma omp task untied shared(r) final(depth < 3)
  r = tree(depth - 1);
  #pragma omp taskwait
  return l + r;
}
