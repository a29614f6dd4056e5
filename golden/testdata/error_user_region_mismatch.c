/* pomp inst end with the wrong region name. */
void phases(void)
{
  #pragma pomp inst begin(setup)
  #pragma pomp inst begin(solve)
  #pragma pomp inst end(setup) /* ERROR "'#pragma pomp inst end\(setup\)' does not match 'begin\(solve\)' at 5:3" */
  #pragma pomp inst end(solve)
  #pragma pomp inst end(setup)
}
