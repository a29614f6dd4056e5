/* A user header: its macros' warnings are reported at their definitions,
 * with a note at each expansion. */
#define NEGATIVE(u) ((u) < 0)
#define UNUSED_LOCAL(name) int name = 0
static inline int header_helper(unsigned u) { return NEGATIVE(u); }
