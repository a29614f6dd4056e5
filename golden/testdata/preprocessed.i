# 1 "prog.c"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "prog.c"
# 1 "/usr/include/fake_sys.h" 1 3 4
static inline int sys_helper(int x)
{
  int s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < x; i++)
    s += i;
  return s;
}
# 2 "prog.c" 2
# 1 "util.h" 1
static inline void util(int *a)
{
#pragma omp parallel
  a[0] = 1;
}
# 3 "prog.c" 2

int user(int n, int *a)
{
  util(a);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = sys_helper(i);
  return a[0];
}
