// differs gcc default /macrodirective\.c:.*(comparison of|IS_NEG)/: the directive comes from a macro, which gopari cc can instrument only in the preprocessed source: a message inside a macro points at its expansion, without the "in expansion of macro" note
// differs * raw /in macro definitions not instrumented/: gopari's own note that --raw does not instrument the directives macros make
/* A directive that a macro makes: the source is compiled preprocessed. */
#define PARALLEL_FOR _Pragma("omp parallel for")
#define IS_NEG(x)   ((x) < 0u)

int macrodirective(int n, unsigned *a)
{
  int    unused_here;
  PARALLEL_FOR
  for (int i = 0; i < n; i++)
    a[i] =   IS_NEG(a[i]);
  return 0;
}
