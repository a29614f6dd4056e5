/*
 * clock.c — the timer: the invariant TSC where there is one, else
 * CLOCK_MONOTONIC (GOPARI_CLOCK=monotonic), its reading at the start of
 * the run, and the conversion of LONG_NS and SHORT_NS into ticks once the
 * tick rate can be measured. The per-event read, now(), is in core.h.
 */
#include <stdlib.h>
#include <time.h>
#include "core.h"
#ifdef POMP_HAVE_TSC
#include <cpuid.h>
#endif

int pomp_use_tsc;

uint64_t pomp_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef POMP_COUNT_NOW /* a test build: how often the clock is read (core.h) */
uint64_t pomp_now_calls;
#endif
uint64_t pomp_now(void) { return now(); }

/* invariant_tsc reports whether the TSC ticks at a constant rate in all
 * power states, so that it can time events. */
static int invariant_tsc(void)
{
#ifdef POMP_HAVE_TSC
	unsigned a, b, c, d;
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d))
		return (d >> 8) & 1;
#endif
	return 0;
}

/* pomp_clock_pair reads the timer and CLOCK_MONOTONIC as of one moment:
 * of a few readings, the one whose two timer reads bracket the monotonic
 * read most tightly. A thread preempted between two reads would skew a
 * single pair by the time it waited (milliseconds on a loaded machine),
 * and with it the tick rate measured between two pairs. */
void pomp_clock_pair(uint64_t *tick, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a = now(), n = pomp_ns(), b = now();
		if (b >= a && b - a < best) {
			best = b - a;
			*tick = a + (b - a) / 2;
			*ns = n;
		}
	}
	if (best == UINT64_MAX) { /* a timer going backwards: take the last */
		*tick = now();
		*ns = pomp_ns();
	}
}

/* pomp_clock_start picks the timer — the TSC if it is invariant and
 * allow_tsc is set, else CLOCK_MONOTONIC — and takes the run's start
 * time. */
void pomp_clock_start(int allow_tsc)
{
	pomp_use_tsc = invariant_tsc() && allow_tsc;
	pomp_g.use_tsc = pomp_use_tsc;
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	pomp_clock_pair(&pomp_g.tick0, &pomp_g.ns0);
	pomp_g.realtime0 = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	pomp_configure();
}

/* calibrate_long converts LONG_NS into ticks once the run is long enough
 * to measure the tick rate. */
void pomp_calibrate_long(uint64_t ts)
{
	static int done;
	if (done || !pomp_use_tsc)
		return;
	uint64_t ns = pomp_ns() - pomp_g.ns0;
	if (ns < 10000000 || ts <= pomp_g.tick0)
		return;
	double per_ns = (double)(ts - pomp_g.tick0) / (double)ns;
	pomp_g.long_ticks = (uint64_t)((double)LONG_NS * per_ns);
	pomp_g.short_ticks = (uint64_t)((double)SHORT_NS * per_ns);
	done = 1;
}
