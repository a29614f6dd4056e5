/* pomp inst end and altend without a begin. */
int phases(int n)
{
  if (n < 0) {
    #pragma pomp inst altend(work) /* ERROR "'#pragma pomp inst altend\(work\)' has no matching 'begin\(work\)'" */
    return -1;
  }
  #pragma pomp inst end(work) /* ERROR "'#pragma pomp inst end\(work\)' has no matching 'begin\(work\)'" */
  return n;
}
