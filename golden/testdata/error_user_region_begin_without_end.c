/* pomp inst begin without an end. */
int phases(int n)
{
  #pragma pomp inst begin(work) /* ERROR "'#pragma pomp inst begin\(work\)' has no matching 'end\(work\)'" */
  n *= 2;
  #pragma pomp inst begin /* ERROR "needs a region name: begin\(name\)" */
  return n;
}
