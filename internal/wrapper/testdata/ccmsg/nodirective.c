/* A file without directives compiles as the user wrote it: every message
 * is the compiler's own, macros and headers included. */
#include "macros.h"

#define IS_NEG(x)   ((x) < 0u)

int nodirective(unsigned u)
{
  UNUSED_LOCAL(never_read);
  int    spaced   =   IS_NEG(u);
	return NEGATIVE(u) + spaced;
}
