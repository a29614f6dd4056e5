/* A shared library built with gopari cc --functions: its function's call
 * paths are resolved after the run from the library the run mapped. */
__attribute__((noinline)) long libwork(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i;
	return s;
}
