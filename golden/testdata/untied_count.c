/* Removed untied clauses are counted in one note per file, at the
 * first of them. */
void work(int);

void spawn(int n)
{
  #pragma omp task untied /* NOTE "^3 'untied' clauses removed so that task identities stay exact \(--untied=keep keeps them\)$" */
  work(1);
  #pragma omp task untied if(n > 1)
  work(2);
  #pragma omp taskloop untied
  for (int i = 0; i < n; i++)
    work(i);
}
