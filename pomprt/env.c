/*
 * env.c — the runtime's settings: the GOPARI_* variables, the mode, and
 * POMP_On/POMP_Off.
 */
#include <stdlib.h>
#include <string.h>
#include "core.h"

static int saved_mode = POMP_MODE_PROFILE; /* restored by POMP_On */
/* pomp_set_mode sets the run's mode, which POMP_On restores. */
void pomp_set_mode(int mode)
{
	saved_mode = mode;
	pomp_mode = mode;
	pomp_g.mode = mode;
}

/* configure reads the runtime's settings beyond the mode. */
void pomp_configure(void)
{
	const char *s = getenv("GOPARI_SAMPLING");
	pomp_g.sampling = !(s && !strcmp(s, "off"));
	const char *o = getenv("GOPARI_ORDERED");
	pomp_g.ordered_count = o && !strcmp(o, "count");
	pomp_ev_configure(); /* a stream times every event it records: the profile samples as ever */
	/* Until the clock is calibrated (at the first fork after 10 ms), a
	 * tick is taken to be 1/4 ns: a generous bound for "long". */
	pomp_g.long_ticks = pomp_use_tsc ? 4 * (uint64_t)LONG_NS : LONG_NS;
	pomp_g.short_ticks = pomp_use_tsc ? (uint64_t)SHORT_NS : SHORT_NS; /* a tick is taken to be 1 ns until calibrated */
}
/* ---------------------------------------------------------------------
 * User control.
 */
void POMP_Off(void)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_mode = POMP_MODE_IDS;
}

void POMP_On(void)
{
	if (saved_mode >= POMP_MODE_PROFILE)
		pomp_mode = saved_mode;
}
