// gopari: --untied=error
/* With --untied=error an untied task is refused. */
void spawn(int *x)
{
  #pragma omp task untied shared(x) /* ERROR "untied task: task identities are exact only for tied tasks" */
  x[0]++;
  #pragma omp taskloop untied /* ERROR "untied task" */
  for (int i = 0; i < 4; i++)
    x[i]++;
}
