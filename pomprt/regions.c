/*
 * regions.c — region phases: entering and leaving a construct, its body,
 * its barrier or its wait, each with a fast path for an untimed frame in
 * an untimed task and the full path for everything else, and the phase
 * records of the event stream.
 */
#include "core.h"

void pomp_close_phase_at(pomp_thr *t, uint64_t ts)
{
	pomp_frame *f = &t->fr[t->nfr - 1];
	pomp_stat *s = stat_at(t, f->region);
	close_top_at(t, s, &s->ph[f->phase], (f->flags & FL_TS) ? ts : 0);
}

/* ---------------------------------------------------------------------
 * The event stream (events.h): one check of the thread's mask per event
 * (EV, core.h), the rest out of the way.
 */

/* lock_address names a critical section: its name, hashed (FNV-1a), so
 * that every critical of one name has one address. */
static uint64_t lock_address(const POMP_Region *r)
{
	const char *n = r->sub_name ? r->sub_name : "";
	uint64_t h = 14695981039346656037ull;
	for (; *n; n++)
		h = (h ^ (unsigned char)*n) * 1099511628211ull;
	return h;
}

/* grain_phase reports whether grains mode records phase ph of region r:
 * a task's waits, the executions of loops and taskloops, and the parts
 * of single and sections constructs (RF_GRAINEV, RF_GRAINBODY). */
static inline int grain_phase(const POMP_Region *r, int ph)
{
	uint16_t f = pomp_g.rflags[r->id];
	return (f & RF_GRAINEV) && (ph != PH_BODY || (f & RF_GRAINBODY));
}

/* ev_enter and ev_exit record a region phase; a critical section's body
 * is bracketed by the acquisition and release of its lock. */
static __attribute__((noinline)) void ev_enter(pomp_thr *t, const POMP_Region *r, int ph, uint64_t ts)
{
	/* A section's number, from pomp_rt_section_begin: 0 when unknown
	 * (code instrumented before sections were numbered). */
	uint32_t section = 0;
	if (r->kind == POMP_SECTIONS && ph == PH_BODY) {
		section = t->section;
		t->section = 0;
	}
	if (!pomp_g.ev_all && !grain_phase(r, ph))
		return; /* grains mode: only what grains need */
	if (!ts)
		ts = now();
	if (r->kind == POMP_CRITICAL && ph == PH_BODY)
		EV(t, EV_LOCK_ACQUIRED, r->id, ts, 1, lock_address(r), 0, 0);
	if (section)
		EV(t, EV_ENTER + ph, r->id, ts, 1, section - 1, 0, 0);
	else
		EV(t, EV_ENTER + ph, r->id, ts, 0, 0, 0, 0);
}

static __attribute__((noinline)) void ev_exit(pomp_thr *t, const POMP_Region *r, int ph, uint64_t ts)
{
	if (!pomp_g.ev_all && !grain_phase(r, ph))
		return;
	if (!ts)
		ts = now();
	EV(t, EV_EXIT + ph, r->id, ts, 0, 0, 0, 0);
	if (r->kind == POMP_CRITICAL && ph == PH_BODY)
		EV(t, EV_LOCK_RELEASED, r->id, ts, 1, lock_address(r), 0, 0);
}

/* ---------------------------------------------------------------------
 * Region events.
 */
/* skip_standalone counts a standalone ordered (doacross) event that is
 * not timed — sampled like short tasks, or only counted
 * (GOPARI_ORDERED=count) — and leaves its exit to be skipped
 * (exit_unframed). It returns 0, doing nothing, for an instance to time.
 * The full path (enter_full) and the fast one (enter_standalone) decide
 * here. */
static inline __attribute__((always_inline)) int skip_standalone(pomp_thr *t, pomp_stat *s, POMP_Region *r)
{
	uint32_t id = r->id;
	uint64_t n = s->ph[PH_CONSTRUCT].visits + 1;
	if (!(pomp_g.rflags[id] & RF_COUNT) && sampled(t, n, id) && task_measured(t))
		return 0;
	s->ph[PH_CONSTRUCT].visits = n;
	t->skip_region = id;
	t->creating = 0;
	if (t->ev.mask)
		ev_enter(t, r, PH_CONSTRUCT, 0);
	return 1;
}

/* exit_light ends a point construct of an untimed task, marked on the
 * task's frame (enter_body), and ends the creation in progress as every
 * event does. It returns 0, doing nothing, if the top frame bears no
 * mark of region id and phase ph. A mark has its top bit set, which no
 * estimate of a measured frame reaches (an untimed phase frame's is 0):
 * the frame that bears it is an untimed task's, the innermost. */
static inline __attribute__((always_inline)) int exit_light(pomp_thr *t, uint32_t id, int ph)
{
	pomp_frame *f = &t->fr[t->nfr - 1];
	if (f->est == light(id, ph)) {
		f->est = 0;
		t->creating = 0;
		return 1;
	}
	return 0;
}

/* exit_unframed ends a phase that has no frame of its own: a point
 * construct of an untimed task (exit_light), or an unmeasured
 * standalone ordered (skip_standalone), whose marks never meet (RF_POINT
 * regions are not RF_STANDALONE). It returns 0, doing nothing, for a
 * phase with a frame. The full path (exit_slow) and the fast one
 * (exit_body) decide here; light says whether exit_light was asked
 * already. */
static inline __attribute__((always_inline)) int exit_unframed(pomp_thr *t, uint32_t id, int ph, const int light)
{
	if (!light && exit_light(t, id, ph))
		return 1;
	if (t->skip_region == id && ph == PH_CONSTRUCT) {
		t->skip_region = 0;
		t->creating = 0;
		return 1;
	}
	return 0;
}

static __attribute__((noinline)) void enter_full(POMP_Region *r, int ev)
{
	pomp_thr *t = self();
	CHECK(t);
	t->creating = 0;
	unpark_if_parked(t);
	uint32_t id = r->id;
	pomp_stat *s = stat_at(t, id);
	int measured = task_measured(t), pick = 0;
	if (__builtin_expect(pomp_g.rflags[id] & RF_STANDALONE, 0)) {
		if (skip_standalone(t, s, r))
			return;
		pick = sample(s->ph[PH_CONSTRUCT].visits + 1, id);
	}
	uint64_t ts;
	pomp_frame *f = open_phase(t, s, id, FR_PHASE, phase_of(ev), measured, &ts);
	if (pick)
		f->flags |= FL_POOL;
	if (t->ev.mask)
		ev_enter(t, r, phase_of(ev), ts);
	if (__builtin_expect((pomp_g.rflags[id] & RF_SCHED) && (t->fr[t->task].flags & FL_UNTIED), 0))
		pomp_park(t, ts ? ts : now());
}

/* find returns the index of the innermost frame of region, kind and
 * phase within the innermost task, or -1. */
static int find(pomp_thr *t, uint32_t region, int kind, int phase)
{
	for (int i = t->nfr - 1; i > t->task; i--) {
		pomp_frame *f = &t->fr[i];
		if (f->region == region && f->kind == kind && f->phase == phase)
			return i;
		if (FR_IS_TASK(f->kind))
			break;
	}
	return -1;
}

static void exit_slow(pomp_thr *t, POMP_Region *r, int ph);

static __attribute__((noinline)) void exit_full(POMP_Region *r, int ev)
{
	pomp_thr *t = self();
	CHECK(t);
	t->creating = 0;
	unpark_if_parked(t);
	int ph = phase_of(ev);
	pomp_frame *f = top(t);
	if (__builtin_expect(f->region != r->id || f->kind != FR_PHASE || f->phase != ph ||
	                             (pomp_g.rflags[r->id] & (RF_STANDALONE | RF_EXITHOOK)),
	                     0)) {
		exit_slow(t, r, ph);
		return;
	}
	pomp_stat *s = stat_at(t, r->id);
	uint64_t ts = close_top(t, s, &s->ph[ph]);
	if (t->ev.mask)
		ev_exit(t, r, ph, ts);
}

/* close_wait closes the wait phase of taskgroup r on top of t, at its
 * exit: the group's tasks are done. It returns the time it read, or 0. */
static uint64_t close_wait(pomp_thr *t, POMP_Region *r)
{
	pomp_frame *f = top(t);
	if (f->region != r->id || f->kind != FR_PHASE || f->phase != PH_WAIT) {
		pomp_end_counted(t); /* C taskloop tasks it ran there, ended */
		f = top(t);
		if (f->region != r->id || f->kind != FR_PHASE || f->phase != PH_WAIT)
			return 0;
	}
	pomp_stat *s = stat_at(t, r->id);
	uint64_t ts = close_top(t, s, &s->ph[PH_WAIT]);
	if (t->ev.mask)
		ev_exit(t, r, PH_WAIT, ts);
	return ts;
}

static __attribute__((noinline)) void exit_slow(pomp_thr *t, POMP_Region *r, int ph)
{
	uint32_t id = r->id;
	if (exit_unframed(t, id, ph, 0)) {
		if (t->ev.mask)
			ev_exit(t, r, ph, 0);
		return;
	}
	uint64_t wts = 0; /* the end of a taskgroup's wait: its exit */
	if (r->kind == POMP_TASKGROUP && ph == PH_CONSTRUCT)
		wts = close_wait(t, r);
	int i = find(t, id, FR_PHASE, ph);
	if (i < 0 && pomp_end_counted(t))
		i = find(t, id, FR_PHASE, ph);
	if (i < 0) {
		t->unmatched++;
		return;
	}
	int stale = i != t->nfr - 1;
	if (stale)
		pomp_drop(t, i, now());
	pomp_stat *s = stat_at(t, id);
	pomp_frame *f = top(t);
	uint64_t aux = f->aux;
	uint64_t ts;
	if (wts && !stale && (f->flags & FL_TS))
		close_top_at(t, s, &s->ph[ph], ts = wts);
	else
		ts = close_top(t, s, &s->ph[ph]);
	if (t->ev.mask)
		ev_exit(t, r, ph, ts);
	if (r->kind == POMP_TASKGROUP && ph == PH_BODY) {
		/* The end of its body begins the wait for the group's tasks
		 * (Wait, until Taskgroup_exit), at the time the body ended. */
		uint64_t wts;
		open_phase_at(t, s, id, FR_PHASE, PH_WAIT, task_measured(t), ts, &wts);
		if (t->ev.mask)
			ev_enter(t, r, PH_WAIT, wts);
		ts = wts;
	}
	if (r->kind == POMP_TASKLOOP && !(pomp_g.rflags[id] & RF_NOGROUP)) {
		/* Its tasks have all ended: a bound for the ends observed late. */
		pomp_tlinst *in = &t->tlinst[aux % POMP_TLINST];
		if (in->seq == aux)
			__atomic_store_n(&in->exit_ts, ts ? ts : now(), __ATOMIC_RELAXED);
	}
	if (r->kind == POMP_TASKGROUP && ph == PH_BODY && (t->fr[t->task].flags & FL_UNTIED))
		pomp_park(t, ts ? ts : now()); /* the wait for the group follows */
}

/* ---------------------------------------------------------------------
 * Fast paths. Most events of a run with many tasks are those of tasks
 * that are not timed, in tasks that are not timed: they need no clock
 * and none of the special cases. Each entry point below handles that
 * case with a few loads and stores and no call, so that the compiler
 * keeps it a leaf; anything else goes to the full function above, which
 * does the same and more. The two share their parts through static
 * inline helpers (core.h, and the helpers of this file that name both
 * paths), so that a fast path is the full one with its special cases
 * left out.
 */

/* Each fast path below has a body written once, inline, with a constant
 * traced: the entry point runs it untraced, lean; a thread that keeps a
 * stream runs it traced, from a function of its own. */

/* enter_standalone enters a standalone ordered (doacross) event, sampled
 * like short tasks or only counted (GOPARI_ORDERED=count): a visit is
 * counted, and its exit skipped. */
static __attribute__((noinline)) void enter_standalone(pomp_thr *t, POMP_Region *r)
{
	if (!skip_standalone(t, &t->stat[r->id], r))
		enter_full(r, POMP_EV_CONSTRUCT);
}

/* enter_body enters a region phase on the fast path; points says
 * whether it may be a scheduling point (pomp_rt_enter handles those of a
 * lean thread itself). */
static inline __attribute__((always_inline)) void enter_body(pomp_thr *t, POMP_Region *r, int ev, const int traced, const int points)
{
	uint32_t id = r->id;
	uint16_t rf = pomp_g.rflags[id];
	pomp_stat *s = &t->stat[id];
	int ph = phase_of(ev);
	if (__builtin_expect(task_measured(t) || t->nfr == t->capfr || s->active[ph] == 0, 0))
		return enter_full(r, ev); /* timed, or the outermost, which reads the clock */
	pomp_frame *c = &t->fr[t->task];
	if (points && ((rf & RF_POINT) || ph == PH_BARRIER)) {
		/* A scheduling point in an untimed task, not the outermost of
		 * its region here: its visit is counted, its task marked. */
		if (__builtin_expect((c->flags & FL_UNTIED) || c->est || c != &t->fr[t->nfr - 1], 0))
			return enter_full(r, ev); /* untied tasks park */
		t->creating = 0;
		s->ph[ph].visits++;
		c->est = light(id, ph);
		if (traced)
			ev_enter(t, r, ph, 0);
		return;
	}
	t->creating = 0;
	s->active[ph]++;
	push_phase(t, id, FR_PHASE, ph, 0, 0); /* untimed, as the full path would push it */
	if (traced)
		ev_enter(t, r, ph, 0);
}

static __attribute__((noinline)) void enter_traced(pomp_thr *t, POMP_Region *r, int ev) { enter_body(t, r, ev, 1, 1); }

static __attribute__((noinline)) void enter_untraced(pomp_thr *t, POMP_Region *r, int ev) { enter_body(t, r, ev, 0, 1); }

/* enter_lean enters a phase that is no scheduling point, for
 * pomp_rt_enter. */
static __attribute__((noinline)) void enter_lean(pomp_thr *t, POMP_Region *r, int ev) { enter_body(t, r, ev, 0, 0); }

/* enter_other dispatches what the entry point leaves: a thread on the
 * full paths or with a stream, and regions beyond its statistics. */
static __attribute__((noinline)) void enter_other(POMP_Region *r, int ev)
{
	pomp_thr *t = stream_self();
	if (lean(t) && t->ev.mask && r->id < t->nstat && !(pomp_g.rflags[r->id] & RF_STANDALONE))
		return enter_traced(t, r, ev);
	t = pomp_self_tls;
	if (!fast(t) || r->id >= t->nstat)
		return enter_full(r, ev);
	if (pomp_g.rflags[r->id] & RF_STANDALONE)
		return enter_standalone(t, r);
	if (t->ev.mask)
		return enter_traced(t, r, ev);
	return enter_untraced(t, r, ev);
}

/* The entry point handles a scheduling point of an untimed task itself
 * (a taskwait in a recursion: enter_body's first case, with the checks it
 * needs only), and dispatches the rest to bodies of their own. */
void pomp_rt_enter(POMP_Region *r, int ev)
{
	pomp_thr *t = lean_self();
	uint32_t id = r->id;
	if (__builtin_expect(!lean(t) || id >= t->nstat, 0))
		return enter_other(r, ev);
	uint16_t rf = pomp_g.rflags[id];
	int ph = phase_of(ev);
	if (!(rf & RF_POINT) && ph != PH_BARRIER) {
		if (rf & RF_STANDALONE)
			return enter_standalone(t, r);
		return enter_lean(t, r, ev);
	}
	/* Not the outermost of its region here (which reads the clock), in
	 * an untimed task on top of its stack, not marked already: the visit
	 * is counted, the task marked (RF_POINT are never RF_STANDALONE). */
	int i = t->nfr - 1;
	pomp_frame *c = &t->fr[i];
	pomp_stat *s = &t->stat[id];
	if (__builtin_expect(t->task != i || (c->flags & (FL_MEASURED | FL_UNTIED)) || c->est || s->active[ph] == 0, 0))
		return enter_full(r, ev); /* timed, untied (which parks), or the outermost */
	t->creating = 0;
	s->ph[ph].visits++;
	c->est = light(id, ph);
}

static inline __attribute__((always_inline)) void exit_body(pomp_thr *t, POMP_Region *r, int ev, const int traced, const int light)
{
	int ph = phase_of(ev);
	uint32_t id = r->id;
	if (exit_unframed(t, id, ph, light)) {
		if (traced)
			ev_exit(t, r, ph, 0);
		return;
	}
	pomp_frame *f = &t->fr[t->nfr - 1];
	if (__builtin_expect(f->region != id || f->kind != FR_PHASE || f->phase != ph || (f->flags & FL_TS) ||
	                             (pomp_g.rflags[id] & (RF_STANDALONE | RF_EXITHOOK)) || id >= t->nstat,
	                     0))
		return exit_full(r, ev);
	t->creating = 0;
	pomp_stat *s = &t->stat[id];
	pop_phase(t, s, &s->ph[ph], ph); /* untimed: as close_top_at pops it */
	if (traced)
		ev_exit(t, r, ph, 0);
}

static __attribute__((noinline)) void exit_lean(pomp_thr *t, POMP_Region *r, int ev) { exit_body(t, r, ev, 0, 1); }

/* exit_other is the rest of the entry point: a thread on the full paths,
 * or with a stream. */
static __attribute__((noinline)) void exit_other(POMP_Region *r, int ev)
{
	pomp_thr *t = stream_self();
	if (lean(t) && t->ev.mask)
		return exit_body(t, r, ev, 1, 0);
	t = pomp_self_tls;
	if (!fast(t))
		return exit_full(r, ev);
	if (t->ev.mask)
		return exit_body(t, r, ev, 1, 0);
	exit_body(t, r, ev, 0, 0);
}

void pomp_rt_exit(POMP_Region *r, int ev)
{
	pomp_thr *t = lean_self();
	if (__builtin_expect(!lean(t), 0))
		return exit_other(r, ev);
	if (exit_light(t, r->id, phase_of(ev)))
		return;
	exit_lean(t, r, ev);
}

/* pomp_rt_section_begin begins section number section of the sections
 * region r: a region event whose record, where the thread keeps a
 * stream, carries the number (the grains of tasks created in a section
 * are named by it). Untraced, one load and a test more than
 * pomp_rt_enter. */
void pomp_rt_section_begin(POMP_Region *r, int section)
{
	pomp_thr *t = pomp_self_tls;
	if (t && t->ev.mask)
		t->section = (uint32_t)section + 1;
	pomp_rt_enter(r, POMP_EV_BODY);
}

void POMP_Body_end_cleanup(POMP_Region **r)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_rt_exit(*r, (*r)->kind == POMP_MASTER ? POMP_EV_CONSTRUCT : POMP_EV_BODY);
}
