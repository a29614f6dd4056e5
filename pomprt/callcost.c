/*
 * callcost.c — what one measured call costs, measured by the run at its
 * end (call_cost_ns in the profile's call paths; gopari filter reads it).
 *
 * The thread that ends the run calls the hooks itself on a probe (an
 * address no function has): batches of enter and exit pairs, timed with
 * the run's clock, the fastest batch kept so that a preempted one does
 * not count. The hooks run as an instrumented function runs them: through
 * a pointer, so the compiler cannot inline them here, on the thread's own
 * state, the probe's path below the thread's current one. Then the probe's
 * counts are emptied and the time charged to the current path put back:
 * the measurement leaves no trace in the profile but the probe's node,
 * which Go drops (pomp_cp_probe).
 */
#include "callpath.h"

#define COST_BATCHES 7
#define COST_PAIRS 256

static const char cost_probe[1];

uint64_t pomp_cp_probe(void) { return (uint64_t)(uintptr_t)cost_probe; }

/* What pomp_finish measured, for Go: ticks of cost_pairs calls. */
uint64_t pomp_cp_cost_ticks;
int pomp_cp_cost_pairs;

void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

/* pomp_cp_cost returns the ticks of the fastest batch of COST_PAIRS
 * measured calls on the calling thread t, with the batch size in *pairs;
 * 0 when it cannot measure: call paths off or light (sampling alone: no
 * hook ever ran, and the probe's would make them whole), a thread without them or
 * without a current path, the trace (whose records the calls would
 * write), or a tree near its node limit (the probe would go to the
 * overflow node). */
uint64_t pomp_cp_cost(pomp_thr *t, int *pairs)
{
	*pairs = COST_PAIRS;
	if (pomp_cp.on != 1 || pomp_cp_is_light() || !t || !t->cp || EV_ON(t, EV_FUNC_ENTER) || t->cp->cur == CP_NONE ||
	    t->cp->cur == CP_OVERFLOW || pomp_cp.n + 2 >= pomp_cp.max)
		return 0;
	void (*volatile enter)(void *, void *) = __cyg_profile_func_enter;
	void (*volatile leave)(void *, void *) = __cyg_profile_func_exit;
	void *probe = (void *)cost_probe;
	pomp_cpthr *c = t->cp;
	pomp_cp_flush(t, now()); /* the current path's time, up to here */
	uint32_t cur = c->cur;
	pomp_loc *l = cur_loc(t);
	if (cur >= l->ncp)
		return 0;
	pomp_cpcount saved = l->cp[cur];
	int n = c->n;
	enter(probe, NULL); /* the probe's path, and the counters' room for it */
	uint32_t node = c->n > n ? c->cs[c->n - 1].path : CP_NONE;
	leave(probe, NULL);
	l = cur_loc(t);
	if (node == CP_NONE || node == CP_OVERFLOW || node >= l->ncp || c->n != n) {
		c->cur = cur;
		return 0;
	}
	uint64_t best = UINT64_MAX;
	for (int b = 0; b < COST_BATCHES; b++) {
		uint64_t t0 = now();
		for (int i = 0; i < COST_PAIRS; i++) {
			enter(probe, NULL);
			leave(probe, NULL);
		}
		uint64_t d = now() - t0;
		if (d < best)
			best = d;
	}
	l = cur_loc(t);
	l->cp[node] = (pomp_cpcount){0, 0};
	l->cp[cur] = saved;
	c->cur = cur;
	c->last = now(); /* the measurement is no path's time */
	return best;
}
