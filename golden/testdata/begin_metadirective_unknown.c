/* A begin metadirective whose variant is known only at run time passes
 * through with its end metadirective (which gcc 12 rejects, with or
 * without gopari). */
int enclosed(int use)
{
  int n = 0;
  #pragma omp begin metadirective when(user={condition(use)}: parallel) /* WARNING "'begin metadirective' passed through without instrumentation: the condition 'use'" */
  n += 10;
  #pragma omp end metadirective
  return n;
}
