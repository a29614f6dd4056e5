/* N-Queens with tasks: the first CUTOFF rows spawn a task per queen
 * placement, deeper rows are searched serially, so that each task does
 * enough work to pay for its creation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 16

static int ok(const char *q, int row, int col)
{
  for (int r = 0; r < row; r++) {
    int c = q[r];
    if (c == col || c - col == row - r || col - c == row - r)
      return 0;
  }
  return 1;
}

static long serial(char *q, int n, int row)
{
  if (row == n)
    return 1;
  long count = 0;
  for (int col = 0; col < n; col++) {
    if (ok(q, row, col)) {
      q[row] = (char)col;
      count += serial(q, n, row + 1);
    }
  }
  return count;
}

static long solve(const char *q, int n, int row, int cutoff)
{
  if (row >= cutoff) {
    char copy[MAXN];
    memcpy(copy, q, MAXN);
    return serial(copy, n, row);
  }
  long counts[MAXN] = {0};
  for (int col = 0; col < n; col++) {
    if (!ok(q, row, col))
      continue;
    #pragma omp task firstprivate(col) shared(counts)
    {
      char next[MAXN];
      memcpy(next, q, MAXN);
      next[row] = (char)col;
      counts[col] = solve(next, n, row + 1, cutoff);
    }
  }
  #pragma omp taskwait
  long total = 0;
  for (int col = 0; col < n; col++)
    total += counts[col];
  return total;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 11;
  int cutoff = argc > 2 ? atoi(argv[2]) : 3;
  if (n < 1 || n > MAXN) {
    fprintf(stderr, "usage: nqueens [n <= %d] [cutoff]\n", MAXN);
    return 2;
  }
  char q[MAXN] = {0};
  long solutions = 0;
  #pragma omp parallel
  {
    #pragma omp single
    solutions = solve(q, n, 0, cutoff);
  }
  printf("nqueens(%d) = %ld\n", n, solutions);
  return 0;
}
