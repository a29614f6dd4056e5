/*
 * rt.c — the per-event part of libpomp. Everything here runs in C on
 * thread-local memory; Go is reached only at exit (pompGoFinalize).
 * How a run starts and ends (initialisation, exit, signals) is in
 * lifecycle.c. How time is attributed, and when it is sampled, is
 * described in rt.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rt.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define POMP_HAVE_TSC 1
#endif

/* The public thread state of pomp.h, and the mode. */
POMP_TLS POMP_Thread pomp_thread;
int pomp_mode = POMP_MODE_OFF;
int pomp_iterations; /* pomp.h: set by pomp_ev_configure when there is a stream */

pomp_rt pomp_g = {.mu = PTHREAD_MUTEX_INITIALIZER};

static __thread pomp_thr *self_tls __attribute__((tls_model("initial-exec")));
static int saved_mode = POMP_MODE_PROFILE; /* restored by POMP_On */

/* OpenMP routines, weak so that libpomp links into programs without
 * OpenMP; absent, they behave as in a sequential program. */
extern int omp_get_thread_num(void) __attribute__((weak));
extern int omp_get_num_threads(void) __attribute__((weak));

static int thread_num(void) { return omp_get_thread_num ? omp_get_thread_num() : 0; }

/* EV appends a record to the thread's event stream if its mask takes the
 * type: one check per event (events.h). */
#define EV_ON(t, type) __builtin_expect(((t)->ev.mask >> (type)) & 1, 0)
#define EV(t, type, region, ts, n, a, b, c)                                              \
	do {                                                                             \
		if (EV_ON(t, type))                                                      \
			ev_record(&(t)->ev, (t)->index, (type), (region), (ts), (n), (a), (b), (c)); \
	} while (0)

/* cpu_relax is the body of a short spin-wait loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* ---------------------------------------------------------------------
 * Time.
 */
static int use_tsc;

uint64_t pomp_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef POMP_COUNT_NOW /* a test build: how often the clock is read */
uint64_t pomp_now_calls;
#define COUNT_NOW() (pomp_now_calls++)
#else
#define COUNT_NOW() ((void)0)
#endif

static inline uint64_t now(void)
{
	COUNT_NOW();
#ifdef POMP_HAVE_TSC
	if (__builtin_expect(use_tsc, 1))
		return __rdtsc();
#endif
	return pomp_ns();
}

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

/* ---------------------------------------------------------------------
 * The clock and the mode, set once at start-up (lifecycle.c).
 */
static void configure(void);

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
	use_tsc = invariant_tsc() && allow_tsc;
	pomp_g.use_tsc = use_tsc;
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	pomp_clock_pair(&pomp_g.tick0, &pomp_g.ns0);
	pomp_g.realtime0 = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	configure();
}

/* pomp_set_mode sets the run's mode, which POMP_On restores. */
void pomp_set_mode(int mode)
{
	saved_mode = mode;
	pomp_mode = mode;
	pomp_g.mode = mode;
}

/* configure reads the runtime's settings beyond the mode. */
static void configure(void)
{
	const char *s = getenv("GOPARI_SAMPLING");
	pomp_g.sampling = !(s && !strcmp(s, "off"));
	const char *o = getenv("GOPARI_ORDERED");
	pomp_g.ordered_count = o && !strcmp(o, "count");
	pomp_ev_configure(); /* a stream times every event it records: the profile samples as ever */
	/* Until the clock is calibrated (at the first fork after 10 ms), a
	 * tick is taken to be 1/4 ns: a generous bound for "long". */
	pomp_g.long_ticks = use_tsc ? 4 * (uint64_t)LONG_NS : LONG_NS;
	pomp_g.short_ticks = use_tsc ? (uint64_t)SHORT_NS : SHORT_NS; /* a tick is taken to be 1 ns until calibrated */
}

/* calibrate_long converts LONG_NS into ticks once the run is long enough
 * to measure the tick rate. */
static void calibrate_long(uint64_t ts)
{
	static int done;
	if (done || !use_tsc)
		return;
	uint64_t ns = pomp_ns() - pomp_g.ns0;
	if (ns < 10000000 || ts <= pomp_g.tick0)
		return;
	double per_ns = (double)(ts - pomp_g.tick0) / (double)ns;
	pomp_g.long_ticks = (uint64_t)((double)LONG_NS * per_ns);
	pomp_g.short_ticks = (uint64_t)((double)SHORT_NS * per_ns);
	done = 1;
}

/* ---------------------------------------------------------------------
 * Registration of regions, threads and locations.
 */
static void grow_stats(pomp_loc *l, uint32_t need);

/* region_flags derives the runtime's flags of a region from its table
 * entry. */
static uint16_t region_flags(const POMP_Region *r)
{
	uint16_t f = 0;
	switch (r->kind) {
	case POMP_ORDERED:
		if ((r->flags & POMP_FLAG_DEPEND) && r->begin_line == r->end_line)
			f |= RF_STANDALONE | (pomp_g.ordered_count ? RF_COUNT : 0);
		break;
	case POMP_TASKLOOP:
		f |= RF_SCHED | RF_EXITHOOK | RF_GRAINEV; /* its executions name its tasks */
		if (r->clauses && strstr(r->clauses, "nogroup"))
			f |= RF_NOGROUP;
		break;
	case POMP_TASKWAIT:
		f |= RF_SCHED | RF_POINT | RF_GRAINEV;
		break;
	case POMP_TASKYIELD:
	case POMP_BARRIER:
		f |= RF_SCHED | RF_POINT;
		break;
	case POMP_TASKGROUP:
		f |= RF_EXITHOOK | RF_GRAINEV; /* the wait follows the end of its body */
		break;
	case POMP_FOR:
		/* Its executions delimit its chunks, and name the tasks its
		 * iterations create (or say that they cannot be named). */
		f |= RF_GRAINEV;
		break;
	case POMP_SINGLE:
	case POMP_SECTIONS:
		/* Which thread runs a single's body or a section varies: the
		 * tasks created there are named by the construct and section. */
		f |= RF_GRAINEV | RF_GRAINBODY;
		break;
	}
	return f;
}

void POMP_Register_unit(POMP_Unit *u)
{
	pomp_init();
	if (u->abi_version != POMP_ABI_VERSION) {
		fprintf(stderr, "gopari: %s was instrumented for POMP ABI %u, this runtime has %d; its regions are ignored\n",
		        u->file, u->abi_version, POMP_ABI_VERSION);
		return;
	}
	pthread_mutex_lock(&pomp_g.mu);
	uint32_t need = pomp_g.nregions + u->n_regions + 1;
	if (need > pomp_g.capregions) {
		uint32_t cap = pomp_g.capregions ? pomp_g.capregions : 64;
		while (cap < need)
			cap *= 2;
		POMP_Region **regions = realloc(pomp_g.regions, cap * sizeof *regions);
		/* The flags and spans are read without the lock: the old arrays
		 * stay. */
		uint16_t *rflags = calloc(cap, sizeof *rflags);
		uint64_t *rspan = calloc(cap, sizeof *rspan);
		if (!regions || !rflags || !rspan)
			abort();
		if (pomp_g.rflags) {
			memcpy(rflags, pomp_g.rflags, pomp_g.capregions * sizeof *rflags);
			memcpy(rspan, pomp_g.rspan, pomp_g.capregions * sizeof *rspan);
		}
		pomp_g.regions = regions;
		pomp_g.rspan = rspan;
		pomp_g.rflags = rflags;
		pomp_g.capregions = cap;
	}
	for (uint32_t i = 0; i < u->n_regions; i++) {
		POMP_Region *r = &u->regions[i];
		r->id = ++pomp_g.nregions;
		pomp_g.regions[r->id] = r;
		pomp_g.rflags[r->id] = region_flags(r);
	}
	u->next = pomp_g.units;
	pomp_g.units = u;
	pthread_mutex_unlock(&pomp_g.mu);
}

static pomp_frame *push(pomp_thr *t);

static pomp_thr *register_thread(void)
{
	pomp_thr *t = calloc(1, sizeof *t);
	if (!t)
		abort();
	pthread_mutex_lock(&pomp_g.mu);
	t->index = pomp_g.next_index++;
	t->next = pomp_g.threads;
	pomp_g.threads = t;
	pomp_g.nthreads++;
	pthread_mutex_unlock(&pomp_g.mu);
	self_tls = t;
	pomp_thread.next = ((POMP_Task_handle)t->index << 32) | 1;
	if (t->index != 0 && pomp_thread.current == POMP_ROOT_TASK)
		pomp_thread.current = (POMP_Task_handle)t->index << 32; /* its own initial task */
	/* The bottom of the stack: the thread's initial task, measured so that
	 * the regions it runs outside parallel regions are. */
	pomp_frame *f = push(t);
	memset(f, 0, sizeof *f);
	f->kind = FR_ROOT;
	f->flags = FL_MEASURED | FL_TS;
	f->id = pomp_thread.current;
	f->prev_task = -1;
	f->last = now();
	if (t->index == 0 && pomp_g.tick0 && pomp_g.tick0 <= f->last)
		f->last = pomp_g.tick0; /* the initial thread's initial task began with the run */
	t->task = 0;
	t->cur_id = f->id;
	t->measured = 1;
	t->egen = 1;
	t->tracing = pomp_g.ev_mask != 0;
	t->slow = pomp_g.mode == POMP_MODE_RECORD ? SLOW_RECORD : 0;
	pomp_ev_thread(t, t->index);
	return t;
}

static inline pomp_thr *self(void)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(t != NULL, 1))
		return t;
	return register_thread();
}

pomp_thr *pomp_self(void) { return self(); }

/* pomp_self_if_any returns the calling thread's state, or NULL for a
 * thread that never called the runtime: it registers nothing. */
pomp_thr *pomp_self_if_any(void) { return self_tls; }

POMP_Task_handle pomp_rt_thread_new(void)
{
	if (!self_tls) {
		register_thread();
	} else {
		/* The counter wrapped after 2^32 - 1 IDs: continue under a fresh
		 * index, so that IDs stay unique. */
		pthread_mutex_lock(&pomp_g.mu);
		uint32_t idx = pomp_g.next_index++;
		pthread_mutex_unlock(&pomp_g.mu);
		pomp_thread.next = ((POMP_Task_handle)idx << 32) | 1;
	}
	return pomp_thread.next;
}

/* new_loc creates a location; the caller holds pomp_g.mu. */
static uint32_t new_loc(uint32_t parent, uint32_t num, uint32_t level, uint32_t os)
{
	if (pomp_g.nlocs == pomp_g.caplocs) {
		uint32_t cap = pomp_g.caplocs ? 2 * pomp_g.caplocs : 64;
		pomp_loc **l = malloc(cap * sizeof *l);
		if (!l)
			abort();
		if (pomp_g.nlocs)
			memcpy(l, pomp_g.locs, pomp_g.nlocs * sizeof *l);
		/* The old array is never freed: threads may still read it. */
		pomp_g.locs = l;
		pomp_g.caplocs = cap;
	}
	pomp_loc *l = calloc(1, sizeof *l);
	if (!l)
		abort();
	l->index = pomp_g.nlocs;
	l->parent = parent == UINT32_MAX ? l->index : parent;
	l->num = num;
	l->level = level;
	l->os_thread = os;
	grow_stats(l, pomp_g.nregions + 1);
	pomp_g.locs[pomp_g.nlocs++] = l;
	if (parent != UINT32_MAX) {
		pomp_loc *p = pomp_g.locs[parent];
		if (num >= p->nchildren) {
			uint32_t n = num + 1 > 2 * p->nchildren ? num + 1 : 2 * p->nchildren;
			uint32_t *c = malloc(n * sizeof *c);
			if (!c)
				abort();
			for (uint32_t i = 0; i < n; i++)
				c[i] = i < p->nchildren ? p->children[i] : UINT32_MAX;
			/* The old array leaks: a master may be reading it. */
			p->children = c;
			p->nchildren = n;
		}
		p->children[num] = l->index;
	}
	return l->index;
}

/* root_loc returns the location of an initial thread. */
static uint32_t root_loc(pomp_thr *t)
{
	pthread_mutex_lock(&pomp_g.mu);
	uint32_t found = UINT32_MAX;
	for (uint32_t i = 0; i < pomp_g.nlocs; i++) {
		pomp_loc *l = pomp_g.locs[i];
		if (l->level == 0 && l->num == t->index) {
			found = i;
			break;
		}
	}
	if (found == UINT32_MAX)
		found = new_loc(UINT32_MAX, t->index, 0, t->index);
	pthread_mutex_unlock(&pomp_g.mu);
	return found;
}

/* child_loc returns the location of thread num of the teams forked by
 * location parent. */
static uint32_t child_loc(pomp_thr *t, uint32_t parent, uint32_t num)
{
	if (t->has_cache && t->cache_parent == parent && t->cache_num == num)
		return t->cache_loc;
	pthread_mutex_lock(&pomp_g.mu);
	pomp_loc *p = pomp_g.locs[parent];
	uint32_t found = num < p->nchildren ? p->children[num] : UINT32_MAX;
	if (found == UINT32_MAX)
		found = new_loc(parent, num, p->level + 1, t->index);
	pthread_mutex_unlock(&pomp_g.mu);
	t->cache_parent = parent;
	t->cache_num = num;
	t->cache_loc = found;
	t->has_cache = 1;
	return found;
}

/* set_loc makes location i current for thread t. */
static void set_loc(pomp_thr *t, uint32_t i)
{
	pomp_loc *l = pomp_g.locs[i];
	if (t->loc != i)
		t->egen++; /* the cached edge counters are another location's */
	t->ev.loc = i;
	if (t->ev.mask & (1u << EV_LOC))
		ev_record(&t->ev, t->index, EV_LOC, 0, now(), 1, i, 0, 0);
	t->loc = i;
	t->has_loc = 1;
	t->stat = l->stat;
	t->nstat = l->nstat;
}

static inline __attribute__((always_inline)) pomp_loc *cur_loc(pomp_thr *t)
{
	if (__builtin_expect(!t->has_loc, 0))
		set_loc(t, root_loc(t));
	return pomp_g.locs[t->loc];
}

static void grow_stats(pomp_loc *l, uint32_t need)
{
	uint32_t cap = l->nstat ? l->nstat : 64;
	while (cap < need)
		cap *= 2;
	pomp_stat *s = calloc(cap, sizeof *s);
	if (!s)
		abort();
	if (l->nstat)
		memcpy(s, l->stat, l->nstat * sizeof *s);
	for (uint32_t i = l->nstat; i < cap; i++) {
		s[i].create_min = UINT64_MAX;
		s[i].exec_min = UINT64_MAX;
	}
	/* The old array leaks on purpose: a finalizer may be reading it. */
	l->stat = s;
	l->nstat = cap;
}

static __attribute__((noinline)) pomp_stat *stat_slow(pomp_thr *t, uint32_t region)
{
	pomp_loc *l = cur_loc(t);
	if (region >= l->nstat)
		grow_stats(l, region + 1);
	t->stat = l->stat;
	t->nstat = l->nstat;
	return &l->stat[region];
}

static inline __attribute__((always_inline)) pomp_stat *stat_at(pomp_thr *t, uint32_t region)
{
	if (__builtin_expect(region < t->nstat, 1))
		return &t->stat[region];
	return stat_slow(t, region);
}

pomp_stat *pomp_stat_at(pomp_thr *t, uint32_t region) { return stat_at(t, region); }

void pomp_frames_restart(pomp_thr *t, uint64_t tick)
{
	for (int k = 0; k < t->nfr; k++) {
		pomp_frame *f = &t->fr[k];
		f->start = f->last = tick;
		f->excl = f->est = f->exec = 0;
		f->susp = 0;
	}
	/* The counts of open frames start empty with the statistics: count
	 * the open phases again, at the location each was opened at. */
	uint32_t loc = t->has_loc ? t->loc : 0;
	for (int k = t->nfr - 1; k >= 0; k--) {
		pomp_frame *f = &t->fr[k];
		if (f->kind == FR_IMPLICIT)
			loc = f->saved_loc; /* frames below were opened at the encountering location */
		if ((f->kind == FR_PHASE || f->kind == FR_FORK) && t->has_loc && loc < pomp_g.nlocs) {
			pomp_loc *l = pomp_g.locs[loc];
			if (f->region < l->nstat)
				l->stat[f->region].active[f->phase]++;
		}
	}
	t->creating = 0;
	t->egen++;
}

/* ---------------------------------------------------------------------
 * Statistics helpers.
 */
/* edge_slow counts a child of region child created by a task of region
 * parent in s, and caches the counter in slot h. */
static __attribute__((noinline)) void edge_slow(pomp_thr *t, pomp_stat *s, uint32_t parent, uint32_t child, unsigned h)
{
	uint32_t i = 0;
	while (i < s->nedges && s->edges[i].parent != parent)
		i++;
	if (i == s->nedges) {
		if (s->nedges == s->capedges) {
			uint32_t cap = s->capedges ? 2 * s->capedges : 4;
			pomp_edge *e = malloc(cap * sizeof *e);
			if (!e)
				abort();
			if (s->nedges)
				memcpy(e, s->edges, s->nedges * sizeof *e);
			/* The old array leaks: a finalizer may be reading it. */
			s->edges = e;
			s->capedges = cap;
			t->egen++; /* cached counters may point into the old array */
		}
		s->edges[i] = (pomp_edge){.parent = parent, .count = 0};
		s->nedges++;
	}
	s->edges[i].count++;
	t->ecache[h].parent = parent;
	t->ecache[h].child = child;
	t->ecache[h].count = &s->edges[i].count;
	t->ecache[h].gen = t->egen;
}

/* add_edge counts a child of region child (statistics s) created by a
 * task of region parent. The memory grows with the pairs of regions, not
 * with tasks; a small cache per thread finds the counter. */
static inline __attribute__((always_inline)) void add_edge(pomp_thr *t, pomp_stat *s, uint32_t parent, uint32_t child)
{
	unsigned h = (parent * 31u + child) & 63;
	if (__builtin_expect(t->ecache[h].gen == t->egen && t->ecache[h].parent == parent && t->ecache[h].child == child, 1))
		(*t->ecache[h].count)++;
	else
		edge_slow(t, s, parent, child, h);
}

/* sampled decides whether the n-th instance of region created here is
 * measured. */
static inline __attribute__((always_inline)) int sampled(pomp_thr *t, uint64_t n, uint32_t region)
{
	(void)t;
	return n <= SAMPLE_EXACT || (n & (SAMPLE_EVERY - 1)) == 0 || !pomp_g.sampling || (pomp_g.rflags[region] & RF_LONG);
}

/* sample reports whether the n-th instance of region, measured, is a
 * sample of the instances around it (FL_POOL) rather than certain. */
static inline int sample(uint64_t n, uint32_t region)
{
	return n > SAMPLE_EXACT && pomp_g.sampling && !(pomp_g.rflags[region] & RF_LONG);
}

static inline __attribute__((always_inline)) void dist_add(uint64_t *n, uint64_t *sum, uint64_t *min, uint64_t *max, uint64_t d)
{
	++*n;
	*sum += d;
	if (d < *min)
		*min = d;
	if (d > *max)
		*max = d;
}

/* ---------------------------------------------------------------------
 * The frame stack.
 */
static __attribute__((noinline)) void grow_frames(pomp_thr *t)
{
	int cap = t->capfr ? 2 * t->capfr : 32;
	pomp_frame *f = realloc(t->fr, cap * sizeof *f);
	if (!f)
		abort();
	t->fr = f;
	t->capfr = cap;
}

static inline __attribute__((always_inline)) pomp_frame *push(pomp_thr *t)
{
	if (__builtin_expect(t->nfr == t->capfr, 0))
		grow_frames(t);
	return &t->fr[t->nfr++];
}

static inline __attribute__((always_inline)) pomp_frame *top(pomp_thr *t) { return &t->fr[t->nfr - 1]; }

/* open_phase_at pushes a frame of a region phase (statistics s) on t's
 * stack. The frame reads the clock if it is measured (its task is), or if
 * it is the outermost frame of its region and phase here (for the
 * inclusive time) — or takes at, a time read already, if not 0; *ts is
 * the time taken, or 0. A frame on top of a measured frame is measured
 * itself: they belong to one task. */
static inline __attribute__((always_inline)) pomp_frame *open_phase_at(pomp_thr *t, pomp_stat *s, uint32_t region, int kind, int phase, int measured, uint64_t at, uint64_t *ts)
{
	if (__builtin_expect(t->nfr == t->capfr, 0))
		grow_frames(t);
	pomp_frame *below = &t->fr[t->nfr - 1];
	int flags = measured ? FL_MEASURED | FL_TS | (t->fr[t->task].flags & FL_POOL) : 0;
	if (s->active[phase]++ == 0)
		flags |= FL_OUTER | FL_TS;
	uint64_t now_ts = 0;
	if (flags | t->tracing) {
		now_ts = at ? at : now();
		flags |= FL_TS;
		if (below->flags & FL_MEASURED)
			below->excl += now_ts - below->last;
	}
	pomp_frame *f = &t->fr[t->nfr++];
	f->region = region;
	f->kind = (uint8_t)kind;
	f->phase = (uint8_t)phase;
	f->flags = (uint16_t)flags;
	f->start = f->last = now_ts;
	f->excl = 0;
	f->est = 0;
	*ts = now_ts;
	return f;
}

/* open_phase is open_phase_at with a time read when one is needed. */
static inline __attribute__((always_inline)) pomp_frame *open_phase(pomp_thr *t, pomp_stat *s, uint32_t region, int kind, int phase, int measured, uint64_t *ts)
{
	return open_phase_at(t, s, region, kind, phase, measured, 0, ts);
}

/* own_time returns the exclusive ticks of measured frame f closed at ts:
 * its time at the top, minus the estimated time of short task instances
 * that ran on it unmeasured. */
static inline __attribute__((always_inline)) uint64_t own_time(const pomp_frame *f, uint64_t ts)
{
	uint64_t ex = f->excl + (ts - f->last);
	return ex > f->est ? ex - f->est : 0;
}

/* close_top_at pops the top frame, a phase or fork frame, into phase p
 * of s, closed at ts if it is timed (FL_TS). */
static inline __attribute__((always_inline)) void close_top_at(pomp_thr *t, pomp_stat *s, pomp_phase *p, uint64_t ts)
{
	pomp_frame *f = &t->fr[t->nfr - 1];
	p->visits++;
	s->active[f->phase]--;
	if (f->flags & FL_TS) {
		if (f->flags & FL_OUTER)
			p->incl += ts - f->start;
		if (f->flags & FL_MEASURED) {
			uint64_t ex = own_time(f, ts);
			p->timed++;
			p->excl += ex;
			t->fr[t->task].exec += ex;
			if (f->flags & FL_POOL) {
				p->timed_p++;
				p->excl_p += ex;
			}
		}
	}
	t->nfr--;
	pomp_frame *below = &t->fr[t->nfr - 1];
	if (below->flags & FL_MEASURED)
		below->last = ts;
}

/* close_top pops the top frame, a phase or fork frame, into phase p of
 * s, and returns the time read, or 0. */
static inline __attribute__((always_inline)) uint64_t close_top(pomp_thr *t, pomp_stat *s, pomp_phase *p)
{
	uint64_t ts = (t->fr[t->nfr - 1].flags & FL_TS) ? now() : 0;
	close_top_at(t, s, p, ts);
	return ts;
}

void pomp_close_phase_at(pomp_thr *t, uint64_t ts)
{
	pomp_frame *f = &t->fr[t->nfr - 1];
	pomp_stat *s = stat_at(t, f->region);
	close_top_at(t, s, &s->ph[f->phase], (f->flags & FL_TS) ? ts : 0);
}

/* light is the mark a point construct of an untimed task leaves on the
 * task's frame instead of a frame of its own (see pomp_rt_enter): its
 * region and phase. */
static inline uint64_t light(uint32_t region, int ph) { return (uint64_t)region << 2 | (uint64_t)ph; }

static int phase_of(int ev)
{
	switch (ev) {
	case POMP_EV_BODY:
		return PH_BODY;
	case POMP_EV_BARRIER:
		return PH_BARRIER;
	case POMP_EV_WAIT:
		return PH_WAIT;
	}
	return PH_CONSTRUCT;
}

/* ---------------------------------------------------------------------
 * Tasks: switching the thread's current task.
 */

/* suspend notes that the innermost task of t is suspended for a task
 * about to be pushed. */
static inline __attribute__((always_inline)) void suspend(pomp_thr *t)
{
	pomp_frame *c = &t->fr[t->task];
	if (__builtin_expect(c->flags & FL_CLOSING, 0))
		stat_at(t, c->region)->suspensions++; /* its body is accounted already */
	else
		c->susp++;
}

/* push_task suspends the innermost task of t and pushes a task frame on
 * top: the one code path of Task_begin, Parallel_begin and the taskloop
 * tasks. A measured task reads the clock. So does an unmeasured one on
 * top of a measured frame, whose time must not count as that frame's,
 * unless its region is short (RF_SHORT): then the frame below keeps
 * running and subtracts the region's mean span at its end. Tasks run in a
 * closing barrier always read the clock: the barrier wait excludes them
 * exactly. */
static inline __attribute__((always_inline)) pomp_frame *push_task(pomp_thr *t, uint32_t region, int kind, int measured, uint64_t id, uint32_t depth, int suspends, uint64_t *ts)
{
	/* An implicit task does not suspend the task that encounters its
	 * parallel region: that task waits for its team in its own code. */
	if (suspends)
		suspend(t);
	if (__builtin_expect(t->nfr == t->capfr, 0))
		grow_frames(t);
	pomp_frame *below = &t->fr[t->nfr - 1];
	int flags = measured ? FL_MEASURED | FL_TS : 0;
	uint64_t now_ts = 0;
	if (below->flags & FL_MEASURED) {
		if (!measured && (pomp_g.rflags[region] & RF_SHORT) &&
		    !(below->flags & FL_CLOSING) && !t->tracing)
			below->est += pomp_g.rspan[region];
		else
			flags |= FL_TS;
	}
	if (flags) {
		now_ts = now();
		if (below->flags & FL_MEASURED)
			below->excl += now_ts - below->last;
	}
	pomp_frame *f = &t->fr[t->nfr++];
	f->region = region;
	f->kind = (uint8_t)kind;
	/* A taskloop's generated tasks are its body; its construct phase is
	 * the taskloop on the encountering thread. */
	f->phase = kind == FR_IMPLICIT || kind == FR_TASKLOOP ? PH_BODY : PH_CONSTRUCT;
	f->flags = (uint16_t)flags;
	f->start = f->last = now_ts;
	f->excl = 0;
	f->est = 0;
	f->id = id;
	f->susp = 0;
	f->prev_task = t->task;
	f->exec = 0;
	f->depth = depth;
	t->task = t->nfr - 1;
	t->cur_id = id;
	t->measured = measured;
	pomp_thread.current = id;
	*ts = now_ts;
	return f;
}

/* pop_task pops the task frame on top of t at time ts (0 if it did not
 * read the clock) and makes the task below current again. */
static inline __attribute__((always_inline)) void pop_task(pomp_thr *t, pomp_frame *f, uint64_t ts)
{
	t->task = f->prev_task;
	t->nfr--;
	if (f->flags & FL_TS) {
		pomp_frame *below = &t->fr[t->nfr - 1];
		if (__builtin_expect(below->flags & FL_CLOSING, 0) && ts) {
			pomp_loc *l = pomp_g.locs[t->loc];
			l->close_tasks += ts - f->start; /* run in the closing barrier */
			l->close_pend_start = 0;
		}
		if (below->flags & FL_MEASURED)
			below->last = ts;
	}
	pomp_frame *c = &t->fr[t->task];
	t->cur_id = c->id;
	t->measured = (c->flags & FL_MEASURED) != 0;
	pomp_thread.current = c->id;
}

/* span_seen records how long a measured instance of region stayed on its
 * thread, for the estimate of unmeasured short instances. A region is
 * short when at most 1% of SAMPLE_EXACT or more measured instances at a
 * location took SHORT_NS or longer (a preempted instance does not change
 * that); the estimate is the mean of its short instances. */
static __attribute__((noinline)) void span_seen(pomp_stat *s, uint32_t region, uint64_t span)
{
	s->span_n++;
	if (span >= pomp_g.short_ticks)
		s->span_long++;
	else
		s->span_sum += span;
	uint16_t f = pomp_g.rflags[region];
	int shorter = s->span_n >= SAMPLE_EXACT && s->span_long * 100 <= s->span_n;
	if (shorter != ((f & RF_SHORT) != 0))
		pomp_g.rflags[region] = (uint16_t)(shorter ? f | RF_SHORT : f & ~RF_SHORT);
	if (s->span_n > s->span_long)
		pomp_g.rspan[region] = s->span_sum / (s->span_n - s->span_long);
}

/* long_seen keeps RF_LONG: the region's measured instances took LONG_NS
 * or more on average at this location, so that timing them all costs
 * little. */
static __attribute__((noinline)) void long_seen(pomp_stat *s, uint32_t region)
{
	uint16_t f = pomp_g.rflags[region];
	int lng = s->exec_sum >= s->exec_timed * pomp_g.long_ticks;
	if (lng != ((f & RF_LONG) != 0))
		pomp_g.rflags[region] = (uint16_t)(lng ? f | RF_LONG : f & ~RF_LONG);
}

/* end_task_stats accounts the end of task frame f (statistics s) at ts.
 * A task's inclusive time is its execution: its own time and that of the
 * regions it ran, not the tasks that ran while it was suspended. */
static inline __attribute__((always_inline)) void end_task_stats(pomp_thr *t, pomp_frame *f, pomp_stat *s, uint64_t ts)
{
	pomp_phase *p = &s->ph[f->phase];
	p->visits++;
	s->suspensions += f->susp;
	if (f->flags & FL_MEASURED) {
		uint64_t own = own_time(f, ts);
		uint64_t exec = f->exec + own;
		p->timed++;
		p->excl += own;
		p->incl += exec;
		dist_add(&s->exec_timed, &s->exec_sum, &s->exec_min, &s->exec_max, exec);
		if (f->flags & FL_POOL) {
			p->timed_p++;
			p->incl_p += exec;
			p->excl_p += own;
			s->exec_timed_p++;
			s->exec_sum_p += exec;
		}
		if (__builtin_expect((s->exec_timed & 63) == 0, 0))
			long_seen(s, f->region);
		if (f->kind == FR_TASK && pomp_g.sampling)
			span_seen(s, f->region, ts - f->start);
	}
	(void)t;
}

static void record_pair(pomp_thr *t, POMP_Task_handle id, POMP_Task_handle parent)
{
	if (t->nids + 2 > t->capids) {
		size_t cap = t->capids ? 2 * t->capids : 1 << 16;
		uint64_t *p = realloc(t->ids, cap * sizeof *p);
		if (!p)
			abort();
		t->ids = p;
		t->capids = cap;
	}
	t->ids[t->nids++] = id;
	t->ids[t->nids++] = parent;
}

/* ---------------------------------------------------------------------
 * Untied tasks. At a scheduling point an untied task may continue on
 * another thread (libomp moves them). Its frames are taken off the stack
 * into a pomp_parked record, published by task ID, and a placeholder
 * frame stays. If the task continues here, its frames come back; if its
 * handle appears on another thread, that thread takes them.
 */
static pomp_parked **park_slot(uint64_t id) { return &pomp_g.parked[(id ^ (id >> 32)) & 255]; }

static void parked_unlink(pomp_parked *p)
{
	for (pomp_parked **q = park_slot(p->id); *q; q = &(*q)->next) {
		if (*q == p) {
			*q = p->next;
			return;
		}
	}
}

static void parked_free(pomp_parked *p)
{
	p->next = pomp_g.free_parked;
	pomp_g.free_parked = p;
}

/* park moves the untied innermost task of t and its phase frames into a
 * record, at time ts. */
static __attribute__((noinline)) void park(pomp_thr *t, uint64_t ts)
{
	int i = t->task;
	int n = t->nfr - i;
	pomp_frame *tp = top(t);
	if ((tp->flags & FL_MEASURED) && ts >= tp->last) {
		/* Its time here so far is its own, wherever it continues. */
		tp->excl += ts - tp->last;
		tp->last = ts;
	}
	pthread_mutex_lock(&pomp_g.park_mu);
	pomp_parked *p = pomp_g.free_parked;
	if (p)
		pomp_g.free_parked = p->next;
	else if (!(p = calloc(1, sizeof *p)))
		abort();
	if (n > p->capfr) {
		free(p->fr);
		p->capfr = n < 8 ? 8 : n;
		if (!(p->fr = malloc(p->capfr * sizeof *p->fr)))
			abort();
	}
	memcpy(p->fr, &t->fr[i], n * sizeof *p->fr);
	p->nfr = n;
	p->id = t->fr[i].id;
	p->owner = t;
	p->park_ts = ts;
	p->nested = 0;
	pomp_parked **slot = park_slot(p->id);
	p->next = *slot;
	*slot = p;
	pthread_mutex_unlock(&pomp_g.park_mu);
	for (int k = 0; k < n; k++) {
		p->fr[k].flags &= (uint16_t)~FL_OUTER;
		if (p->fr[k].kind == FR_PHASE)
			stat_at(t, p->fr[k].region)->active[p->fr[k].phase]--;
	}
	pomp_frame *f = &t->fr[i];
	int32_t prev = f->prev_task;
	memset(f, 0, sizeof *f);
	f->kind = FR_PARKED;
	/* The fast paths leave a task begun on it, and everything else, to
	 * the full ones, which bring the task back when it continues. */
	f->flags = FL_MEASURED | FL_UNTIED;
	f->id = p->id;
	f->parked = p;
	f->prev_task = prev;
	t->nfr = i + 1;
	t->measured = 1;
}

/* unpark_frames pushes the frames of p on t's stack at time ts; the caller
 * holds park_mu, and t's innermost task is suspended already. */
static void unpark_frames(pomp_thr *t, pomp_parked *p, uint64_t ts, int moved)
{
	int base = t->nfr;
	while (t->nfr + p->nfr > t->capfr)
		grow_frames(t);
	memcpy(&t->fr[base], p->fr, p->nfr * sizeof *p->fr);
	t->nfr += p->nfr;
	pomp_frame *f = &t->fr[base];
	f->susp += p->nested + (moved ? 1 : 0);
	f->prev_task = t->task;
	if (moved)
		f->start = ts; /* its time on this thread starts now */
	pomp_frame *tp = top(t);
	if (p->nested || moved)
		tp->last = ts; /* the time it was away is not its own */
	for (int k = base; k < t->nfr; k++)
		if (t->fr[k].kind == FR_PHASE)
			stat_at(t, t->fr[k].region)->active[t->fr[k].phase]++;
	t->task = base;
	t->cur_id = p->id;
	t->measured = 1;
}

static void resync(pomp_thr *t);

/* unpark_here brings back the frames of the untied task parked on t (its
 * placeholder on top) when the task continues here. */
static __attribute__((noinline)) void unpark_here(pomp_thr *t)
{
	uint64_t ts = now();
	pomp_frame *ph = &t->fr[t->task];
	pomp_parked *p = ph->parked;
	if (t->task != t->nfr - 1) {
		t->unmatched += t->nfr - 1 - t->task; /* tasks that began on it and never ended */
		t->nfr = t->task + 1;
	}
	int32_t prev = ph->prev_task;
	t->nfr--;
	t->task = prev;
	pthread_mutex_lock(&pomp_g.park_mu);
	if (p->owner != t) {
		/* Another thread took the task while this one still held its
		 * placeholder, and it parked again since: take it from there. */
		parked_free(p);
		pthread_mutex_unlock(&pomp_g.park_mu);
		t->cur_id = t->fr[t->task].id;
		t->measured = (t->fr[t->task].flags & FL_MEASURED) != 0;
		resync(t);
		return;
	}
	parked_unlink(p);
	unpark_frames(t, p, ts, 0);
	parked_free(p);
	pthread_mutex_unlock(&pomp_g.park_mu);
}

/* adopt takes the untied task h, parked by another thread, onto t. It
 * returns 0 if no task h is parked. */
static int adopt(pomp_thr *t, uint64_t h)
{
	pthread_mutex_lock(&pomp_g.park_mu);
	pomp_parked *p = *park_slot(h);
	while (p && p->id != h)
		p = p->next;
	if (!p) {
		pthread_mutex_unlock(&pomp_g.park_mu);
		return 0;
	}
	parked_unlink(p);
	uint64_t ts = now();
	pomp_frame *c = &t->fr[t->task];
	if (c->kind == FR_PARKED && t->task == t->nfr - 1 && c->parked->owner == t)
		c->parked->nested++; /* it runs on top of a parked untied task */
	suspend(t);
	pomp_frame *below = top(t);
	if (below->flags & FL_MEASURED)
		below->excl += ts - below->last;
	unpark_frames(t, p, ts, 1);
	if (p->owner)
		p->owner = t; /* taken: the thread it left frees it when it notices */
	else
		parked_free(p);
	pthread_mutex_unlock(&pomp_g.park_mu);
	pomp_thread.current = h;
	EV(t, EV_RESUME, 0, ts, 1, h, 0, 0);
	return 1;
}

/* release drops the placeholder of a parked task from t's stack: the task
 * left t, or was taken by another thread already. */
static void release(pomp_thr *t, pomp_parked *p)
{
	pthread_mutex_lock(&pomp_g.park_mu);
	if (p->owner != t) {
		parked_free(p); /* taken: the record was the placeholder's alone */
	} else {
		p->owner = NULL; /* it left: whoever continues it takes it */
	}
	pthread_mutex_unlock(&pomp_g.park_mu);
}

/* nested_on_parked counts a task begun on top of the placeholder of a
 * parked task. */
static __attribute__((noinline)) void nested_on_parked(pomp_thr *t, pomp_parked *p)
{
	pthread_mutex_lock(&pomp_g.park_mu);
	if (p->owner == t)
		p->nested++;
	pthread_mutex_unlock(&pomp_g.park_mu);
}

/* ---------------------------------------------------------------------
 * Taskloop tasks in C. A task's last iteration ends it (FL_ENDED) when
 * the runtime knows how many iterations it has; its frame is popped at
 * the thread's next event, which is how a task whose iterations are only
 * counted (FL_COUNTING: a loop gopari cannot read) is seen to end.
 */
static void end_taskloop(pomp_thr *t, uint64_t ts, uint64_t iters);

/* tl_bound returns the latest time at which the taskloop task f can have
 * ended, given that the thread noticed at ts. */
static uint64_t tl_bound(const pomp_frame *f, uint64_t ts)
{
	const pomp_tlinst *in = f->tl;
	if (in && __atomic_load_n(&in->seq, __ATOMIC_RELAXED) == f->tl_seq) {
		uint64_t x = __atomic_load_n(&in->exit_ts, __ATOMIC_RELAXED);
		if (x && x < ts && x >= f->start)
			ts = x;
	}
	if (f->team_seq) {
		/* Run in a closing barrier: it ended before its team joined. */
		pomp_loc *p = pomp_g.locs[pomp_g.locs[f->saved_loc]->parent];
		if (__atomic_load_n(&p->join_seq, __ATOMIC_ACQUIRE) == f->team_seq) {
			uint64_t x = __atomic_load_n(&p->join_ts, __ATOMIC_RELAXED);
			if (x < ts && x >= f->start)
				ts = x;
		}
	}
	return ts;
}

/* tl_pending reports a C taskloop task on the stack that has ended, or
 * may have: its end is seen at the thread's next event. */
static inline int tl_pending(const pomp_frame *f)
{
	return f->kind == FR_TASKLOOP && (f->flags & (FL_ENDED | FL_COUNTING));
}

/* end_counted ends the C taskloop tasks on top of t whose iterations are
 * only counted: the thread leaves a construct below them, so they ended
 * (run in a barrier the compiler added, say). It reports whether it ended
 * one. */
static int end_counted(pomp_thr *t)
{
	int n = 0;
	for (; t->task == t->nfr - 1 && tl_pending(&t->fr[t->task]); n++)
		end_taskloop(t, now(), 0);
	return n;
}

/* ---------------------------------------------------------------------
 * Resynchronization: the thread's current handle is not the task the
 * runtime expects.
 */

/* drop pops the frames of t above index keep, at time ts: stale frames
 * quietly (closing implicit tasks, placeholders of parked tasks, C
 * taskloop tasks that ended), the others as unmatched. It returns how
 * many frames went without an end record in the event stream. */
static int drop(pomp_thr *t, int keep, uint64_t ts)
{
	int silent = 0;
	while (t->nfr - 1 > keep) {
		pomp_frame *f = top(t);
		switch (f->kind) {
		case FR_IMPLICIT:
			if (f->flags & FL_CLOSING) {
				pop_task(t, f, ts);
				silent++;
				continue;
			}
			break;
		case FR_PARKED:
			silent++;
			release(t, f->parked);
			t->task = f->prev_task;
			t->nfr--;
			t->cur_id = t->fr[t->task].id;
			t->measured = (t->fr[t->task].flags & FL_MEASURED) != 0;
			continue;
		case FR_TASKLOOP:
			if (tl_pending(f)) {
				end_taskloop(t, ts, 0);
				continue;
			}
			break;
		}
		/* Abandoned: cancellation, longjmp, exit from a region. */
		t->unmatched++;
		silent++;
		if (f->kind == FR_PHASE || f->kind == FR_FORK)
			stat_at(t, f->region)->active[f->phase]--;
		if (FR_IS_TASK(f->kind)) {
			pop_task(t, f, ts);
		} else {
			t->nfr--;
		}
		if (t->fr[t->nfr - 1].flags & FL_MEASURED)
			t->fr[t->nfr - 1].last = ts;
	}
	return silent;
}

/* resync makes the runtime follow the thread's current handle: a task
 * below on this thread's stack, or an untied task parked by another. */
static __attribute__((noinline)) void resync(pomp_thr *t)
{
	uint64_t h = pomp_thread.current;
	int above = -1; /* the task frame just above the one found */
	for (int i = t->task; i >= 0; above = i, i = t->fr[i].prev_task) {
		if (t->fr[i].id != h)
			continue;
		if (above >= 0) {
			uint64_t ts = now();
			/* Unless only taskloop tasks ended, which the stream hears,
			 * it needs to hear that h is current again. */
			if (drop(t, above - 1, ts))
				EV(t, EV_RESUME, 0, ts, 1, h, 0, 0);
		}
		return;
	}
	if (adopt(t, h))
		return;
	/* A handle the runtime never saw (a task begun while measurement was
	 * off): follow it as an alias of the innermost task. */
	if (pomp_g.mode == pomp_mode)
		t->unmatched++;
	t->cur_id = h;
}

static void settle_creation(pomp_thr *t);

/* CHECK follows the thread's current handle, and ends the creation of a
 * task by an untied task: see settle_creation. */
#define CHECK(t)                                                                             \
	do {                                                                                 \
		if (__builtin_expect((t)->create_untied, 0))                                 \
			settle_creation(t);                                                  \
		if (__builtin_expect(pomp_thread.current != (t)->cur_id, 0))                \
			resync(t);                                                           \
	} while (0)

/* fast reports whether thread t can take a fast path: its handle is the
 * one the runtime expects, and it is not in record mode (pomp_thr.slow).
 * The placeholder of a parked untied task is a timed, untied task frame
 * to the fast paths: they leave everything on it to the full ones. */
static inline __attribute__((always_inline)) int fast(pomp_thr *t)
{
	return t && pomp_thread.current == t->cur_id && !t->slow;
}

/* ev_fast records an event of the fast paths, when the thread keeps a
 * stream that takes its type: it reads the clock for it (the frames of
 * the fast paths do not). */
static __attribute__((noinline)) void ev_fast(pomp_thr *t, unsigned type, uint32_t region, int n, uint64_t a, uint64_t b)
{
	if (EV_ON(t, type))
		ev_record(&t->ev, t->index, type, region, now(), n, a, b, 0);
}

/* ev_at is ev_fast at a time read already, or now when ts is 0. */
static __attribute__((noinline)) void ev_at(pomp_thr *t, unsigned type, uint32_t region, uint64_t ts, int n, uint64_t a, uint64_t b)
{
	if (EV_ON(t, type))
		ev_record(&t->ev, t->index, type, region, ts ? ts : now(), n, a, b, 0);
}

#define EV_FAST(t, type, region, n, a, b)                               \
	do {                                                            \
		if (__builtin_expect((t)->ev.mask != 0, 0))             \
			ev_fast((t), (type), (region), (n), (a), (b));  \
	} while (0)

/* ---------------------------------------------------------------------
 * The event stream (events.h): one check of the thread's mask per event
 * (EV, at the top of this file), the rest out of the way.
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

/* unpark_if_parked continues the untied task whose placeholder is the
 * innermost task of t: an event of the task's own code happens here. */
static inline __attribute__((always_inline)) void unpark_if_parked(pomp_thr *t)
{
	if (__builtin_expect(t->fr[t->task].kind == FR_PARKED, 0))
		unpark_here(t);
}

static __attribute__((noinline)) void enter_full(POMP_Region *r, int ev)
{
	pomp_thr *t = self();
	CHECK(t);
	t->creating = 0;
	unpark_if_parked(t);
	uint32_t id = r->id;
	pomp_stat *s = stat_at(t, id);
	int measured = t->measured, pick = 0;
	if (__builtin_expect(pomp_g.rflags[id] & (RF_STANDALONE | RF_SCHED), 0)) {
		if (pomp_g.rflags[id] & RF_STANDALONE) {
			/* Standalone ordered (doacross): sampled like short tasks,
			 * or only counted (GOPARI_ORDERED=count). */
			uint64_t n = s->ph[PH_CONSTRUCT].visits + 1;
			if (!sampled(t, n, id) || !measured || (pomp_g.rflags[id] & RF_COUNT)) {
				s->ph[PH_CONSTRUCT].visits++;
				t->skip_region = id;
				return;
			}
			pick = sample(n, id);
		}
	}
	uint64_t ts;
	pomp_frame *f = open_phase(t, s, id, FR_PHASE, phase_of(ev), measured, &ts);
	if (pick)
		f->flags |= FL_POOL;
	if (t->ev.mask)
		ev_enter(t, r, phase_of(ev), ts);
	if (__builtin_expect((pomp_g.rflags[id] & RF_SCHED) && (t->fr[t->task].flags & FL_UNTIED), 0))
		park(t, ts ? ts : now());
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
		end_counted(t); /* C taskloop tasks it ran there, ended */
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
	pomp_frame *c = top(t);
	if (t->task == t->nfr - 1 && !(c->flags & FL_MEASURED) && c->est == light(id, ph)) {
		c->est = 0; /* a point construct of an untimed task, entered by the fast path */
		if (t->ev.mask)
			ev_exit(t, r, ph, 0);
		return;
	}
	if (t->skip_region == id && ph == PH_CONSTRUCT) {
		t->skip_region = 0; /* an unmeasured standalone ordered */
		return;
	}
	uint64_t wts = 0; /* the end of a taskgroup's wait: its exit */
	if (r->kind == POMP_TASKGROUP && ph == PH_CONSTRUCT)
		wts = close_wait(t, r);
	int i = find(t, id, FR_PHASE, ph);
	if (i < 0 && end_counted(t))
		i = find(t, id, FR_PHASE, ph);
	if (i < 0) {
		t->unmatched++;
		return;
	}
	int stale = i != t->nfr - 1;
	if (stale)
		drop(t, i, now());
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
		open_phase_at(t, s, id, FR_PHASE, PH_WAIT, t->measured, ts, &wts);
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
		park(t, ts ? ts : now()); /* the wait for the group follows */
}

/* ---------------------------------------------------------------------
 * Tasks.
 */
/* created accounts a measured creation of d ticks of the task t is
 * creating, in the statistics s of its region. */
static void created(pomp_thr *t, pomp_stat *s, uint64_t d)
{
	dist_add(&s->create_timed, &s->create_sum, &s->create_min, &s->create_max, d);
	if (t->create_timed == 2) {
		s->create_timed_p++;
		s->create_sum_p += d;
	}
}

/* libomp's entry points, weak: present when the program runs on LLVM's
 * OpenMP runtime. */
extern int __kmpc_global_thread_num(void *) __attribute__((weak));

static int libomp(void) { return __kmpc_global_thread_num != NULL; }

/* settle_creation ends the creation of a task by an untied task at this
 * thread's next event: the new task was queued before the thread could
 * do anything else. */
static __attribute__((noinline)) void settle_creation(pomp_thr *t)
{
	t->create_untied = 0;
	if (!t->creating)
		return;
	if (t->create_timed)
		created(t, stat_at(t, t->create_region), now() - t->create_start);
	t->creating = 0;
}

static __attribute__((noinline)) POMP_Task_info create_begin_full(POMP_Region *r, int64_t iter)
{
	pomp_thr *t = self();
	POMP_Task_info info;
	info.id = POMP_New_task_id();
	uint64_t parent = pomp_thread.current & POMP_CTX_PARENT;
	info.ctx = parent;
	if (pomp_mode == POMP_MODE_RECORD)
		return info;
	CHECK(t);
	unpark_if_parked(t);
	pomp_frame *task = &t->fr[t->task];
	uint32_t depth = task->depth < CTX_DEPTH_MAX ? task->depth + 1 : CTX_DEPTH_MAX;
	uint32_t id = r->id;
	pomp_stat *s = stat_at(t, id);
	uint64_t n = ++s->created;
	add_edge(t, s, task->region, id);
	if (depth > s->max_depth)
		s->max_depth = depth;
	int m = sampled(t, n, id);
	/* An undeferred task begins before any other event of this thread;
	 * every other event clears creating. */
	t->creating = info.id;
	t->create_region = id;
	t->create_timed = m;
	info.ctx = parent | (uint64_t)depth << CTX_DEPTH_SHIFT;
	if (m) {
		t->create_start = now();
		info.ctx |= CTX_MEASURED;
		if (sample(n, id)) {
			t->create_timed = 2;
			info.ctx |= CTX_LOW;
		}
	}
	task->cid = info.id;
	if (t->ev.mask) {
		/* The stream hears the end of every creation. */
		if (!m)
			info.ctx |= CTX_LOW;
		EV(t, EV_CREATE_BEGIN, id, m ? t->create_start : now(), iter == POMP_ITERATION_UNKNOWN ? 1 : 2, info.id, (uint64_t)iter, 0);
	}
	if (__builtin_expect(task->flags & FL_UNTIED, 0)) {
		park(t, m ? t->create_start : now());
		if (!m)
			info.ctx |= CTX_LOW;
		t->create_untied = 1;
		/* libomp runs an untied task as parts between its scheduling
		 * points (libgomp ties it). A task creation is one: the creator
		 * is queued again after the new task, and the code after the
		 * task construct runs when the runtime takes it up again,
		 * anywhere, often after other tasks: tens to hundreds of
		 * microseconds later here, as the uninstrumented program
		 * measures around the construct too. The moment the new task
		 * was queued cannot be seen from the source: such creations
		 * are counted, not timed. */
		if (libomp())
			t->create_timed = 0;
	}
	return info;
}

/* create_full is create_begin_full for pomp_rt_task_create_begin. */
static __attribute__((noinline)) POMP_Task_handle create_full(POMP_Region *r, POMP_Task_ctx *ctx, int64_t iter)
{
	POMP_Task_info info = create_begin_full(r, iter);
	*ctx = info.ctx;
	return info.id;
}

void pomp_rt_task_create_end(POMP_Region *r)
{
	pomp_thr *t = self_tls;
	if (fast(t) && t->creating && !t->create_timed && t->create_region == r->id && !t->create_untied) {
		/* An untimed creation that a stream hears of. */
		t->creating = 0;
		EV_FAST(t, EV_CREATE_END, r->id, 1, t->fr[t->task].cid, 0);
		return;
	}
	t = self();
	if (pomp_mode == POMP_MODE_RECORD)
		return;
	CHECK(t);
	unpark_if_parked(t);
	uint64_t ts = 0;
	if (t->ev.mask) {
		/* An undeferred task's creation ends when its execution does:
		 * at its TASK_END, the thread's last record. */
		ts = t->fr[t->task].cid == t->undeferred ? t->ev.last : now();
		EV(t, EV_CREATE_END, r->id, ts, 1, t->fr[t->task].cid, 0, 0);
	}
	if (t->creating == 0 || t->create_region != r->id)
		return; /* undeferred: its creation ended when it began */
	t->creating = 0;
	if (!t->create_timed)
		return;
	created(t, stat_at(t, r->id), (ts ? ts : now()) - t->create_start);
}

/* before_task prepares t for a task that begins on top of its stack,
 * other than one it is creating: a C taskloop task on top has ended, and a
 * parked untied task below is suspended. */
static __attribute__((noinline)) void before_task(pomp_thr *t, int undeferred)
{
	pomp_frame *f = top(t);
	if (tl_pending(f) && !undeferred)
		end_taskloop(t, now(), 0);
	f = &t->fr[t->task];
	if (f->kind == FR_PARKED && t->task == t->nfr - 1)
		nested_on_parked(t, f->parked);
}

static __attribute__((noinline)) void task_begin_full(POMP_Region *r, POMP_Task_handle id_, POMP_Task_ctx ctx)
{
	POMP_Task_info info = {id_, ctx};
	POMP_Task_handle parent = ctx & POMP_CTX_PARENT;
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD) {
		record_pair(t, info.id, parent);
		pomp_thread.current = info.id;
		return;
	}
	if (__builtin_expect(!info.id, 0))
		info.id = POMP_New_task_id(); /* created while measurement was off */
	/* A task an untied task created begins on its thread before anything
	 * else happens there: undeferred, if it may be (if, final); else the
	 * thread took it from the queue. */
	int undeferred = info.id == t->creating &&
	                 (!t->create_untied || (r->flags & (POMP_FLAG_IF | POMP_FLAG_FINAL)));
	if (undeferred)
		t->create_untied = 0;
	CHECK(t);
	if (__builtin_expect(t->fr[t->nfr - 1].kind >= FR_TASKLOOP, 0))
		before_task(t, undeferred);
	uint32_t id = r->id;
	pomp_stat *s = stat_at(t, id);
	int m = (info.ctx & CTX_MEASURED) != 0;
	int untied = (r->flags & POMP_FLAG_UNTIED) != 0;
	uint64_t ts;
	/* Untied tasks are always measured: they may move. */
	pomp_frame *f = push_task(t, id, FR_TASK, m | untied, info.id, CTX_DEPTH(info.ctx), 1, &ts);
	if (__builtin_expect(untied, 0))
		f->flags |= FL_UNTIED;
	else if (CTX_POOL(info.ctx))
		f->flags |= FL_POOL;
	EV(t, EV_TASK_BEGIN, id, ts, 2, info.id, parent, 0);
	s->executed++;
	if (undeferred) {
		s->undeferred++;
		t->undeferred = info.id;
		t->creating = 0;
		if (t->create_timed)
			created(t, stat_at(t, t->create_region), (ts ? ts : now()) - t->create_start);
	}
}

static __attribute__((noinline)) void task_end_full(POMP_Region *r)
{
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD)
		return;
	CHECK(t);
	t->creating = 0;
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	if (__builtin_expect(f->kind != FR_TASK || f->region != r->id, 0)) {
		t->unmatched++;
		return;
	}
	if (__builtin_expect(i != t->nfr - 1, 0))
		drop(t, i, now());
	uint64_t ts = f->flags & FL_TS ? now() : 0;
	EV(t, EV_TASK_END, r->id, ts, 1, f->id, 0, 0);
	end_task_stats(t, f, stat_at(t, r->id), ts);
	pop_task(t, f, ts);
}


/* ---------------------------------------------------------------------
 * Fast paths. Most events of a run with many tasks are those of tasks
 * that are not timed, in tasks that are not timed: they need no clock
 * and none of the special cases. Each entry point below handles that
 * case with a few loads and stores and no call, so that the compiler
 * keeps it a leaf; anything else goes to the full function above, which
 * does the same and more.
 */

/* Each fast path below has a body written once, inline, with a constant
 * traced: the entry point runs it untraced, lean; a thread that keeps a
 * stream runs it traced, from a function of its own. */

/* enter_standalone enters a standalone ordered (doacross) event, sampled
 * like short tasks or only counted (GOPARI_ORDERED=count): a visit is
 * counted, and its exit skipped. */
static __attribute__((noinline)) void enter_standalone(pomp_thr *t, POMP_Region *r)
{
	uint32_t id = r->id;
	pomp_stat *s = &t->stat[id];
	uint64_t n = s->ph[PH_CONSTRUCT].visits + 1;
	if (!(pomp_g.rflags[id] & RF_COUNT) && sampled(t, n, id) && t->measured)
		return enter_full(r, POMP_EV_CONSTRUCT);
	s->ph[PH_CONSTRUCT].visits = n;
	t->skip_region = id;
	t->creating = 0;
	if (t->ev.mask)
		ev_enter(t, r, PH_CONSTRUCT, 0);
}

static inline __attribute__((always_inline)) void enter_body(pomp_thr *t, POMP_Region *r, int ev, const int traced)
{
	uint32_t id = r->id;
	uint16_t rf = pomp_g.rflags[id];
	pomp_stat *s = &t->stat[id];
	int ph = phase_of(ev);
	if (__builtin_expect(t->measured || t->nfr == t->capfr || s->active[ph] == 0, 0))
		return enter_full(r, ev); /* timed, or the outermost, which reads the clock */
	pomp_frame *c = &t->fr[t->task];
	if ((rf & RF_POINT) || ph == PH_BARRIER) {
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
	pomp_frame *f = &t->fr[t->nfr++];
	f->region = id;
	f->kind = FR_PHASE;
	f->phase = (uint8_t)ph;
	f->flags = 0;
	f->start = f->last = f->excl = f->est = 0;
	if (traced)
		ev_enter(t, r, ph, 0);
}

static __attribute__((noinline)) void enter_traced(pomp_thr *t, POMP_Region *r, int ev) { enter_body(t, r, ev, 1); }

static __attribute__((noinline)) void enter_lean(pomp_thr *t, POMP_Region *r, int ev) { enter_body(t, r, ev, 0); }

/* The entry point only dispatches, with no register to save; the bodies
 * do the rest. */
void pomp_rt_enter(POMP_Region *r, int ev)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(!fast(t) || r->id >= t->nstat, 0))
		return enter_full(r, ev);
	if (pomp_g.rflags[r->id] & RF_STANDALONE)
		return enter_standalone(t, r);
	if (__builtin_expect(t->ev.mask != 0, 0))
		return enter_traced(t, r, ev);
	return enter_lean(t, r, ev);
}

static inline __attribute__((always_inline)) void exit_body(pomp_thr *t, POMP_Region *r, int ev, const int traced)
{
	int ph = phase_of(ev);
	uint32_t id = r->id;
	if (t->skip_region == id && ph == PH_CONSTRUCT) {
		t->skip_region = 0; /* an unmeasured standalone ordered */
		t->creating = 0;
		if (traced)
			ev_exit(t, r, PH_CONSTRUCT, 0);
		return;
	}
	pomp_frame *f = &t->fr[t->nfr - 1];
	if (f->est == light(id, ph) && t->task == t->nfr - 1 && !(f->flags & FL_MEASURED)) {
		f->est = 0; /* a point construct of an untimed task */
		t->creating = 0;
		if (traced)
			ev_exit(t, r, ph, 0);
		return;
	}
	if (__builtin_expect(f->region != id || f->kind != FR_PHASE || f->phase != ph || (f->flags & FL_TS) ||
	                             (pomp_g.rflags[id] & (RF_STANDALONE | RF_EXITHOOK)) || id >= t->nstat,
	                     0))
		return exit_full(r, ev);
	t->creating = 0;
	pomp_stat *s = &t->stat[id];
	s->ph[ph].visits++;
	s->active[ph]--;
	t->nfr--;
	if (traced)
		ev_exit(t, r, ph, 0);
}

static __attribute__((noinline)) void exit_traced(pomp_thr *t, POMP_Region *r, int ev) { exit_body(t, r, ev, 1); }

void pomp_rt_exit(POMP_Region *r, int ev)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(!fast(t), 0))
		return exit_full(r, ev);
	if (__builtin_expect(t->ev.mask != 0, 0))
		return exit_traced(t, r, ev);
	exit_body(t, r, ev, 0);
}

/* pomp_rt_section_begin begins section number section of the sections
 * region r: a region event whose record, where the thread keeps a
 * stream, carries the number (the grains of tasks created in a section
 * are named by it). Untraced, one load and a test more than
 * pomp_rt_enter. */
void pomp_rt_section_begin(POMP_Region *r, int section)
{
	pomp_thr *t = self_tls;
	if (t && t->ev.mask)
		t->section = (uint32_t)section + 1;
	pomp_rt_enter(r, POMP_EV_BODY);
}

/* create_body creates a task on the fast path; a traced creation's
 * record carries iter, the creating loop iteration, when it is known. */
static inline __attribute__((always_inline)) POMP_Task_handle create_body(pomp_thr *t, POMP_Region *r, POMP_Task_ctx *ctx, const int traced,
                                                                          int64_t iter)
{
	uint32_t id = r->id;
	pomp_frame *task = &t->fr[t->task];
	pomp_stat *s = &t->stat[id];
	uint64_t n = s->created + 1;
	unsigned h = (task->region * 31u + id) & 63;
	if (__builtin_expect(sampled(t, n, id) || (task->flags & FL_UNTIED) || t->ecache[h].gen != t->egen ||
	                             t->ecache[h].parent != task->region || t->ecache[h].child != id,
	                     0))
		return create_full(r, ctx, iter);
	POMP_Task_info info;
	info.id = pomp_thread.next++;
	uint32_t depth = task->depth < CTX_DEPTH_MAX ? task->depth + 1 : CTX_DEPTH_MAX;
	s->created = n;
	(*t->ecache[h].count)++;
	if (depth > s->max_depth)
		s->max_depth = depth;
	t->creating = info.id;
	t->create_region = id;
	t->create_timed = 0;
	task->cid = info.id;
	info.ctx = (t->cur_id & POMP_CTX_PARENT) | (uint64_t)depth << CTX_DEPTH_SHIFT;
	if (traced) {
		/* The stream hears the end of every creation. */
		info.ctx |= CTX_LOW;
		ev_fast(t, EV_CREATE_BEGIN, id, iter == POMP_ITERATION_UNKNOWN ? 1 : 2, info.id, (uint64_t)iter);
	}
	*ctx = info.ctx;
	return info.id;
}

static __attribute__((noinline)) POMP_Task_handle create_traced(pomp_thr *t, POMP_Region *r, POMP_Task_ctx *ctx, int64_t iter)
{
	return create_body(t, r, ctx, 1, iter);
}

POMP_Task_handle pomp_rt_task_create_begin(POMP_Region *r, POMP_Task_ctx *ctx)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(!fast(t) || r->id >= t->nstat || (uint32_t)pomp_thread.next == 0, 0))
		return create_full(r, ctx, POMP_ITERATION_UNKNOWN);
	if (__builtin_expect(t->ev.mask != 0, 0))
		return create_traced(t, r, ctx, POMP_ITERATION_UNKNOWN);
	return create_body(t, r, ctx, 0, POMP_ITERATION_UNKNOWN);
}

static uint64_t index_of(long long lb, long long step, long long v);

/* pomp_rt_task_create_begin_iter creates a task in the iteration of a
 * worksharing loop whose loop variable is v (pomp.h): called only where
 * there is a stream, whose CREATE_BEGIN record then carries the logical
 * iteration as its second word (8 bytes, and a division where the step
 * is not 1; no clock read more). In ids mode or off (after POMP_Off) it does what
 * Task_create_begin does. */
POMP_Task_handle pomp_rt_task_create_begin_iter(POMP_Region *r, POMP_Task_ctx *ctx, long long v, long long lb, long long step)
{
	if (pomp_mode < POMP_MODE_PROFILE)
		return POMP_Task_create_begin(r, ctx);
	uint64_t i = step == 1 ? (uint64_t)v - (uint64_t)lb : step ? index_of(lb, step, v) : (uint64_t)POMP_ITERATION_UNKNOWN;
	int64_t iter = i >> 63 ? POMP_ITERATION_UNKNOWN : (int64_t)i;
	pomp_thr *t = self_tls;
	if (__builtin_expect(!fast(t) || r->id >= t->nstat || (uint32_t)pomp_thread.next == 0, 0))
		return create_full(r, ctx, iter);
	if (__builtin_expect(t->ev.mask != 0, 1))
		return create_traced(t, r, ctx, iter);
	return create_body(t, r, ctx, 0, POMP_ITERATION_UNKNOWN);
}

/* task_push pushes the frame of an untimed task, at ts if it read the
 * clock: the part of a fast task begin after the frame below is dealt
 * with. */
static inline __attribute__((always_inline)) void task_push(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx, uint64_t ts, const int traced)
{
	uint32_t rid = r->id;
	pomp_frame *c = &t->fr[t->task];
	c->susp++;
	/* An untimed task's frame: its time fields are never read, but for
	 * start and last when it read the clock (FL_TS). */
	pomp_frame *f = &t->fr[t->nfr++];
	f->region = rid;
	f->kind = FR_TASK;
	f->phase = PH_CONSTRUCT;
	f->flags = ts ? FL_TS : 0;
	f->start = f->last = ts;
	f->est = 0;
	f->id = id;
	f->susp = 0;
	f->prev_task = t->task;
	f->depth = CTX_DEPTH(ctx);
	t->task = t->nfr - 1;
	t->cur_id = id;
	t->measured = 0;
	pomp_thread.current = id;
	pomp_stat *s = &t->stat[rid];
	s->executed++;
	if (id == t->creating) {
		s->undeferred++;
		t->undeferred = id;
		t->creating = 0;
	}
	if (traced)
		ev_at(t, EV_TASK_BEGIN, rid, ts, 2, id, ctx & POMP_CTX_PARENT);
}

/* task_begin_timed begins an untimed task on a timed frame that it must
 * not count as that frame's: it reads the clock (a short region's task
 * subtracts its mean from the frame instead, in the fast path, unless a
 * stream reads the clock anyway). */
static __attribute__((noinline)) void task_begin_timed(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	pomp_frame *below = &t->fr[t->nfr - 1];
	uint64_t ts = now();
	below->excl += ts - below->last;
	if (t->ev.mask)
		task_push(t, r, id, ctx, ts, 1);
	else
		task_push(t, r, id, ctx, ts, 0);
}

static __attribute__((noinline)) void task_begin_traced(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	task_push(t, r, id, ctx, 0, 1);
}

void pomp_rt_task_begin(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(!fast(t) || !id || (ctx & CTX_MEASURED) || (r->flags & POMP_FLAG_UNTIED) ||
	                             r->id >= t->nstat || t->nfr == t->capfr,
	                     0))
		return task_begin_full(r, id, ctx);
	pomp_frame *below = &t->fr[t->nfr - 1];
	pomp_frame *c = &t->fr[t->task];
	if (__builtin_expect(below->kind >= FR_TASKLOOP || (c->flags & (FL_CLOSING | FL_UNTIED)), 0))
		return task_begin_full(r, id, ctx); /* parked untied tasks are FL_UNTIED placeholders */
	if (below->flags & FL_MEASURED) {
		uint32_t rid = r->id;
		if (!(pomp_g.rflags[rid] & RF_SHORT) || t->tracing)
			return task_begin_timed(t, r, id, ctx);
		below->est += pomp_g.rspan[rid];
	}
	if (__builtin_expect(t->ev.mask != 0, 0))
		return task_begin_traced(t, r, id, ctx);
	task_push(t, r, id, ctx, 0, 0);
}

/* task_pop pops the frame of an untimed task, f, on top of t. */
static inline __attribute__((always_inline)) void task_pop(pomp_thr *t, pomp_frame *f, uint32_t rid)
{
	t->creating = 0;
	pomp_stat *s = &t->stat[rid];
	s->ph[PH_CONSTRUCT].visits++;
	s->suspensions += f->susp;
	t->task = f->prev_task;
	t->nfr--;
	pomp_frame *c = &t->fr[t->task];
	t->cur_id = c->id;
	t->measured = (c->flags & FL_MEASURED) != 0;
	pomp_thread.current = c->id;
}

/* task_end_timed ends an untimed task that read the clock when it began
 * on a timed frame, or that a stream hears of. */
static __attribute__((noinline)) void task_end_timed(pomp_thr *t, POMP_Region *r, pomp_frame *f)
{
	uint64_t ts = 0;
	if (f->flags & FL_TS) {
		pomp_frame *below = f - 1;
		if (below->flags & FL_CLOSING)
			return task_end_full(r);
		ts = now();
		below->last = ts;
	}
	if (t->ev.mask)
		ev_at(t, EV_TASK_END, r->id, ts, 1, f->id, 0);
	task_pop(t, f, r->id);
}

void pomp_rt_task_end(POMP_Region *r)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(!fast(t), 0))
		return task_end_full(r);
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	uint32_t rid = r->id;
	if (__builtin_expect(f->kind != FR_TASK || f->region != rid || i != t->nfr - 1 ||
	                             (f->flags & (FL_MEASURED | FL_UNTIED)) || rid >= t->nstat,
	                     0))
		return task_end_full(r);
	if (__builtin_expect((f->flags & FL_TS) || t->ev.mask, 0))
		return task_end_timed(t, r, f);
	task_pop(t, f, rid);
}

/* ---------------------------------------------------------------------
 * Taskloops.
 */

/* Taskloop context: depth in the low 32 bits, the encountering task's
 * region above. */
void pomp_rt_taskloop_enter(POMP_Region *r, POMP_Task_handle encountering, POMP_Taskloop_info *tl)
{
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD)
		return;
	CHECK(t);
	pomp_frame *task = &t->fr[t->task];
	tl->ctx = (uint64_t)(task->depth + 1) | (uint64_t)task->region << 32;
	uint64_t seq = ++t->tlseq;
	pomp_tlinst *in = &t->tlinst[seq % POMP_TLINST];
	__atomic_store_n(&in->exit_ts, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&in->seq, seq, __ATOMIC_RELAXED);
	tl->instance = in;
	tl->seq = seq;
	(void)encountering;
	pomp_rt_enter(r, POMP_EV_CONSTRUCT);
	pomp_frame *f = top(t);
	if (f->region == r->id && f->kind == FR_PHASE)
		f->aux = seq;
	else if (t->task < t->nfr && t->fr[t->task].kind == FR_PARKED) {
		pomp_parked *p = t->fr[t->task].parked;
		p->fr[p->nfr - 1].aux = seq;
	}
}

/* trip returns the iterations of the loop "for (v = lb; v REL ub; v +=
 * step)", or 0 with *ok cleared for a loop that is not in canonical
 * form. The differences are taken modulo 2^64, which is exact for every
 * loop that does not wrap around. */
static uint64_t trip(long long lb, long long ub, long long step, int rel, int *ok)
{
	int uns = rel & POMP_TL_UNSIGNED;
	int lt = uns ? (uint64_t)lb < (uint64_t)ub : lb < ub;
	int gt = uns ? (uint64_t)lb > (uint64_t)ub : lb > ub;
	uint64_t up = (uint64_t)ub - (uint64_t)lb, down = (uint64_t)lb - (uint64_t)ub;
	uint64_t s = step > 0 ? (uint64_t)step : -(uint64_t)step;
	*ok = 1;
	switch (rel & 7) {
	case POMP_TL_LT:
		if (step > 0)
			return lt ? (up - 1) / s + 1 : 0;
		break;
	case POMP_TL_LE:
		if (step > 0)
			return gt ? 0 : up / s + 1;
		break;
	case POMP_TL_GT:
		if (step < 0)
			return gt ? (down - 1) / s + 1 : 0;
		break;
	case POMP_TL_GE:
		if (step < 0)
			return lt ? 0 : down / s + 1;
		break;
	case POMP_TL_NE:
		if (s == 1)
			return step > 0 ? up : down;
		break;
	}
	*ok = 0;
	return 0;
}

/* pomp_rt_taskloop_loop describes loop level of the nest (0 the
 * outermost): its bounds, step and test. */
void pomp_rt_taskloop_loop(POMP_Taskloop_info *tl, int level, long long lb, long long ub, long long step, int rel)
{
	int ok;
	uint64_t n = trip(lb, ub, step, rel, &ok);
	/* A bound POMP_ITERATION_UNKNOWN: a variable declared outside the
	 * header that is no integer. */
	if (!ok || level != tl->levels || level > 1 || lb == POMP_ITERATION_UNKNOWN || ub == POMP_ITERATION_UNKNOWN) {
		tl->levels = -1; /* unknown for good */
		return;
	}
	tl->lb[level] = lb;
	tl->step[level] = step;
	if (level == 0) {
		tl->total = n;
	} else {
		if (n && tl->total > UINT64_MAX / n) {
			tl->levels = -1;
			return;
		}
		tl->inner = n;
		tl->total *= n;
	}
	tl->levels = level + 1;
}

/* pomp_rt_taskloop_schedule notes the clause that splits the taskloop's
 * iterations into tasks; without one, both runtimes make a number of
 * tasks from the team size: libgomp one per thread, libomp ten. */
void pomp_rt_taskloop_schedule(POMP_Taskloop_info *tl, int kind, long long value)
{
	if (kind == POMP_TL_DEFAULT) {
		value = omp_get_num_threads ? omp_get_num_threads() : 1;
		if (libomp())
			value *= 10;
		kind = POMP_TL_NUM_TASKS;
	}
	if (tl->levels > 0 && value > 0) {
		tl->kind = kind;
		tl->sched = value;
	}
}

/* index returns the logical number of value v of a loop from lb by step. */
static uint64_t index_of(long long lb, long long step, long long v)
{
	if (step > 0)
		return ((uint64_t)v - (uint64_t)lb) / (uint64_t)step;
	return ((uint64_t)lb - (uint64_t)v) / -(uint64_t)step;
}

/* logical returns the logical number of the iteration whose loop
 * variables are v0 (and v1), or POMP_ITERATION_UNKNOWN. */
static int64_t logical(const POMP_Taskloop_info *tl, long long v0, long long v1)
{
	if (tl->levels <= 0 || tl->sched <= 0 || v0 == POMP_ITERATION_UNKNOWN || (tl->levels == 2 && v1 == POMP_ITERATION_UNKNOWN))
		return POMP_ITERATION_UNKNOWN;
	uint64_t i = index_of(tl->lb[0], tl->step[0], v0);
	if (tl->levels == 2)
		i = i * tl->inner + index_of(tl->lb[1], tl->step[1], v1);
	return i < tl->total ? (int64_t)i : POMP_ITERATION_UNKNOWN;
}

/* share returns the iterations of the task whose first iteration is
 * first, as libgomp and libomp split the taskloop's iterations: T tasks,
 * the first total % T of them one iteration longer; with grainsize(strict:
 * g) tasks of g and a shorter last one. It returns 0 when first cannot be
 * a task's first iteration: the split is not the one expected. */
static uint64_t share(const POMP_Taskloop_info *tl, int64_t first)
{
	uint64_t n = tl->total, f = (uint64_t)first, v = (uint64_t)tl->sched, tasks;
	if (first == POMP_ITERATION_UNKNOWN || f >= n)
		return 0;
	switch (tl->kind) {
	case POMP_TL_GRAINSIZE_STRICT:
		if (f % v)
			return 0;
		return n - f < v ? n - f : v;
	case POMP_TL_GRAINSIZE:
		tasks = n / v ? n / v : 1;
		break;
	default:
		tasks = v < n ? v : n;
		break;
	}
	uint64_t q = n / tasks, big = n % tasks, split = big * (q + 1);
	if (f < split)
		return f % (q + 1) ? 0 : q + 1;
	return (f - split) % q ? 0 : q;
}

/* A count that never runs out: the iterations of a task that the runtime
 * does not follow (ids mode, off). */
#define TL_NEVER (1ull << 62)

/* taskloop_begin begins the task that the generated task's context tl
 * describes, at its first iteration, v0 (and v1) its loop variables. */
static void taskloop_begin(POMP_Taskloop_info *tl, long long v0, long long v1, int cxx)
{
	pomp_thr *t = self();
	POMP_Task_handle id = POMP_New_task_id();
	tl->id = id;
	if (pomp_mode == POMP_MODE_RECORD) {
		record_pair(t, id, tl->parent);
		pomp_thread.current = id;
		if (!cxx)
			tl->count = TL_NEVER;
		return;
	}
	CHECK(t);
	t->creating = 0;
	if (t->fr[t->nfr - 1].kind >= FR_TASKLOOP)
		before_task(t, 0);
	POMP_Region *r = tl->region;
	uint32_t rid = r->id;
	pomp_stat *s = stat_at(t, rid);
	uint64_t n = ++s->created;
	s->executed++;
	uint32_t depth = (uint32_t)tl->ctx;
	add_edge(t, s, (uint32_t)(tl->ctx >> 32), rid);
	if (depth > s->max_depth)
		s->max_depth = depth;
	int m = sampled(t, n, rid);
	int64_t first = logical(tl, v0, v1);
	uint64_t iters = cxx ? 0 : share(tl, first);
	uint32_t flags = (cxx ? FL_CXX : iters ? 0 : FL_COUNTING) | (r->flags & POMP_FLAG_UNTIED ? FL_UNTIED : 0);
	if (flags & FL_UNTIED)
		m = 1;
	uint64_t ts;
	if (m && !(flags & FL_UNTIED) && sample(n, rid))
		flags |= FL_POOL;
	pomp_frame *f = push_task(t, rid, FR_TASKLOOP, m, id, depth, 1, &ts);
	f->flags |= (uint16_t)flags;
	if (!(f->flags & FL_TS) && (flags & FL_COUNTING)) {
		/* Its end is observed late and bounded by the taskloop's: both
		 * need its start. */
		f->flags |= FL_TS;
		f->start = f->last = now();
	}
	f->aux = iters;
	f->tl_first = first;
	f->tl_end = 0;
	f->tl = tl->instance;
	f->tl_seq = tl->seq;
	f->team_seq = 0;
	if (!cxx)
		tl->count = iters ? iters : 1;
	pomp_frame *below = &t->fr[t->nfr - 2];
	if (!cxx && below->kind == FR_IMPLICIT && (below->flags & FL_CLOSING)) {
		pomp_loc *l = pomp_g.locs[t->loc];
		l->close_pend_start = f->start;
		l->close_pend_end = 0;
		l->close_pend_tl = f->tl;
		l->close_pend_seq = f->tl_seq;
		f->saved_loc = t->loc;
		f->team_seq = l->close_seq;
		__atomic_store_n(&t->close_pending, 1, __ATOMIC_RELEASE); /* for pomp_rt_close */
	}
	EV(t, EV_TASKLOOP_BEGIN, rid, ts ? ts : f->start, 3, id, tl->parent, (uint64_t)first);
}

/* own_taskloop returns the frame of the C taskloop task tl on t, with
 * nothing above it, or NULL. */
static pomp_frame *own_taskloop(pomp_thr *t, const POMP_Taskloop_info *tl)
{
	CHECK(t);
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	if (f->kind != FR_TASKLOOP || f->id != tl->id) {
		t->unmatched++;
		return NULL;
	}
	if (i != t->nfr - 1)
		drop(t, i, now());
	return f;
}

/* pomp_rt_taskloop_iteration handles the first iteration of a generated
 * task, and in C an iteration past the end the runtime expected (the
 * OpenMP runtime split the iterations in another way): the task goes on,
 * its iterations counted from there, its end seen at the next event. */
void pomp_rt_taskloop_iteration(POMP_Taskloop_info *tl, long long v0, long long v1, int cxx)
{
	int mode = pomp_mode;
	if (tl->id == 0 && mode < POMP_MODE_PROFILE) {
		tl->id = mode == POMP_MODE_OFF ? 1 : POMP_New_task_id();
		if (mode != POMP_MODE_OFF)
			pomp_thread.current = tl->id;
		if (!cxx)
			tl->count = TL_NEVER;
		return;
	}
	if (tl->id == 0) {
		taskloop_begin(tl, v0, v1, cxx);
		return;
	}
	tl->count = 1;
	if (mode < POMP_MODE_PROFILE || mode == POMP_MODE_RECORD)
		return;
	pomp_thr *t = self();
	pomp_thread.current = tl->id; /* pomp_rt_taskloop_last gave it back */
	pomp_frame *f = own_taskloop(t, tl);
	if (f) {
		f->flags = (uint16_t)((f->flags & ~FL_ENDED) | FL_COUNTING);
		if (f->team_seq)
			pomp_g.locs[t->loc]->close_pend_end = 0;
	}
}

/* pomp_rt_taskloop_last is reached at the end of the iteration after
 * which the C taskloop task tl has no iterations left: its end. */
void pomp_rt_taskloop_last(POMP_Taskloop_info *tl)
{
	if (pomp_mode < POMP_MODE_PROFILE || pomp_mode == POMP_MODE_RECORD) {
		tl->count = TL_NEVER;
		return;
	}
	pomp_thr *t = self();
	pomp_frame *f = own_taskloop(t, tl);
	if (!f) {
		tl->count = TL_NEVER;
		return;
	}
	if (f->flags & FL_COUNTING) {
		f->aux++;
		tl->count = 1;
		return;
	}
	uint64_t ts = (f->flags & FL_TS) || EV_ON(t, EV_TASKLOOP_END) ? now() : 0;
	f->tl_end = ts;
	f->flags |= FL_ENDED;
	if (f->team_seq && ts)
		pomp_g.locs[t->loc]->close_pend_end = ts;
	/* The thread goes back to the task below, which the next event
	 * resyncs to, ending this one, even where no instrumented code sets
	 * the handle: a barrier the compiler adds (a loop's firstprivate and
	 * lastprivate variable) runs the task and returns to the loop. */
	pomp_thread.current = t->fr[f->prev_task].id;
}

/* end_taskloop ends the taskloop task on top of t: at ts in C++ (exact),
 * with iters iterations. In C, at the end of its last iteration when that
 * was seen, or else at ts bounded by the end of its taskloop, with the
 * iterations counted. */
static void end_taskloop(pomp_thr *t, uint64_t ts, uint64_t iters)
{
	pomp_frame *f = top(t);
	if (!(f->flags & FL_CXX)) {
		ts = f->flags & FL_ENDED ? f->tl_end : tl_bound(f, ts);
		iters = f->aux;
	}
	uint64_t evts = ts; /* the end in the stream, read for it if untimed */
	if (!(f->flags & FL_TS))
		ts = 0;
	else if (ts < f->last)
		ts = evts = f->last;
	pomp_stat *s = stat_at(t, f->region);
	s->iterations += iters;
	int64_t last = f->tl_first == POMP_ITERATION_UNKNOWN || !iters ? POMP_ITERATION_UNKNOWN : f->tl_first + (int64_t)iters - 1;
	EV(t, EV_TASKLOOP_END, f->region, evts ? evts : now(), 2, f->id, (uint64_t)last, 0);
	end_task_stats(t, f, s, ts);
	pop_task(t, f, ts);
}

void pomp_rt_taskloop_end(POMP_Taskloop_info *tl)
{
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD)
		return;
	CHECK(t);
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	if (f->kind != FR_TASKLOOP || f->id != tl->id) {
		t->unmatched++;
		return;
	}
	if (i != t->nfr - 1)
		drop(t, i, now());
	end_taskloop(t, f->flags & FL_TS ? now() : 0, tl->count);
}

/* ---------------------------------------------------------------------
 * Parallel regions.
 */
static void settle_close(pomp_loc *l);

POMP_Task_info POMP_Parallel_fork(POMP_Region *r, POMP_Task_handle encountering)
{
	POMP_Task_info team = {0, 0};
	if (pomp_mode < POMP_MODE_PROFILE || pomp_mode == POMP_MODE_RECORD)
		return team;
	pomp_thr *t = self();
	CHECK(t);
	pomp_loc *l = cur_loc(t);
	uint64_t ts;
	pomp_frame *f = open_phase(t, stat_at(t, r->id), r->id, FR_FORK, PH_CONSTRUCT, 1, &ts);
	f->saved_loc = t->loc;
	f->aux = ++l->forks;
	f->id = encountering;
	calibrate_long(ts);
	EV(t, EV_FORK, r->id, ts, 1, encountering, 0, 0);
	team.id = (POMP_Task_handle)t->loc + 1;
	team.ctx = f->aux;
	return team;
}

/* clear_stale drops what a thread that joins a team as a worker left on
 * its stack: closing implicit tasks of earlier teams, and taskloop tasks
 * and untied tasks that ended or left. */
static void clear_stale(pomp_thr *t, uint64_t ts)
{
	int keep = 0;
	for (int i = t->task; i > 0; i = t->fr[i].prev_task) {
		pomp_frame *f = &t->fr[i];
		if (!(f->kind == FR_IMPLICIT && (f->flags & FL_CLOSING)) && f->kind != FR_PARKED && !tl_pending(f)) {
			keep = t->nfr - 1;
			break; /* a live task: this thread is nesting, not recruited */
		}
	}
	if (keep == 0)
		drop(t, 0, ts);
}

void POMP_Parallel_begin(POMP_Region *r, POMP_Task_handle encountering, POMP_Task_info team)
{
	if (pomp_mode == POMP_MODE_OFF)
		return;
	pomp_thr *t = self();
	POMP_Task_handle id = POMP_New_task_id();
	pomp_thread.current = id;
	if (pomp_mode == POMP_MODE_RECORD) {
		record_pair(t, id, encountering);
		return;
	}
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	pomp_frame *tp = top(t);
	int master = tp->kind == FR_FORK && tp->region == r->id;
	if (!master) {
		/* Recruited as a worker: it ends what it left of earlier teams,
		 * after the end of the run if that is ending them now
		 * (pomp_rt_close), which it can only be where a taskloop task
		 * ran in a closing barrier here (close_pending): a fence then. */
		int guard = __atomic_load_n(&t->close_pending, __ATOMIC_ACQUIRE);
		if (__builtin_expect(guard, 0)) {
			__atomic_store_n(&t->recruiting, 1, __ATOMIC_SEQ_CST);
			while (__atomic_load_n(&t->closing, __ATOMIC_SEQ_CST))
				cpu_relax();
		}
		clear_stale(t, now());
		if (__builtin_expect(guard, 0)) {
			__atomic_store_n(&t->close_pending, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&t->recruiting, 0, __ATOMIC_RELEASE);
		}
	}
	uint32_t parent = team.id ? (uint32_t)(team.id - 1) : (cur_loc(t), t->loc);
	uint32_t saved = t->has_loc ? t->loc : parent;
	set_loc(t, child_loc(t, parent, (uint32_t)thread_num()));
	pomp_loc *l = pomp_g.locs[t->loc];
	settle_close(l);
	l->implicit_tasks++;
	l->close_seq = team.ctx;
	l->close_end = 0;
	l->close_tasks = 0;
	uint64_t ts;
	pomp_frame *f = push_task(t, r->id, FR_IMPLICIT, 1, id, 0, 0, &ts);
	f->saved_loc = saved;
	f->aux = master && omp_get_num_threads ? (uint64_t)omp_get_num_threads() : 1;
	EV(t, EV_IMPLICIT_BEGIN, r->id, ts, 2, id, encountering, 0);
}

void POMP_Parallel_end(POMP_Region *r)
{
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	pomp_thr *t = self();
	CHECK(t);
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	if (f->kind != FR_IMPLICIT && end_counted(t))
		f = &t->fr[i = t->task];
	if (f->kind != FR_IMPLICIT || f->region != r->id || (f->flags & FL_CLOSING)) {
		t->unmatched++;
		return;
	}
	uint64_t ts = now();
	if (i != t->nfr - 1)
		drop(t, i, ts);
	pomp_stat *s = stat_at(t, r->id);
	pomp_phase *p = &s->ph[PH_BODY];
	p->visits++;
	p->timed++;
	p->incl += ts - f->start; /* a location runs one implicit task of a region at a time */
	p->excl += own_time(f, ts);
	s->suspensions += f->susp;
	f->susp = 0;
	/* It stays measured, so that tasks run on it read the clock. */
	f->flags |= FL_CLOSING;
	f->last = ts;
	pomp_loc *l = pomp_g.locs[t->loc];
	l->close_tasks = 0;
	l->close_pend_start = 0;
	l->close_end = ts;
	EV(t, EV_IMPLICIT_END, r->id, ts, 1, f->id, 0, 0);
}

/* join_barrier computes every member's wait in the closing barrier of the
 * team forked by location parent (instance seq) with n members. */
static void join_barrier(uint32_t region, uint32_t parent, uint64_t seq, uint64_t n, uint64_t ts)
{
	pomp_loc *p = pomp_g.locs[parent];
	__atomic_store_n(&p->join_ts, ts, __ATOMIC_RELAXED);
	__atomic_store_n(&p->join_seq, seq, __ATOMIC_RELEASE);
	for (uint64_t i = 0; i < n && i < p->nchildren; i++) {
		uint32_t li = p->children[i];
		if (li == UINT32_MAX)
			continue;
		pomp_loc *l = pomp_g.locs[li];
		if (l->close_seq != seq || l->close_end == 0 || l->close_end > ts)
			continue;
		uint64_t busy = ts - l->close_end;
		uint64_t tasks = l->close_tasks;
		l->close_busy = busy;
		if (l->close_pend_start && l->close_pend_start >= l->close_end) {
			/* A taskloop task (C) that the member has not popped: it
			 * ended with its last iteration, or else by the join. */
			pomp_frame pf = {.start = l->close_pend_start, .tl = l->close_pend_tl, .tl_seq = l->close_pend_seq};
			uint64_t end = l->close_pend_end ? l->close_pend_end : tl_bound(&pf, ts);
			tasks += end - l->close_pend_start;
		}
		l->close_wait = busy > tasks ? busy - tasks : 0;
		l->close_region = region;
		l->close_settle = 1;
	}
}

/* settle_close adds the closing-barrier wait that location l holds, if
 * any, to its statistics: the region's stats exist at l, since its
 * Parallel_end counted the body there. */
static void settle_close(pomp_loc *l)
{
	if (!l->close_settle)
		return;
	l->close_settle = 0;
	if (l->close_region >= l->nstat)
		return; /* cannot be: Parallel_end counted the region here */
	/* Its inclusive time holds the tasks the member ran there, as a
	 * worksharing construct's implicit barrier does; its exclusive time
	 * is the wait. */
	pomp_phase *b = &l->stat[l->close_region].ph[PH_BARRIER];
	b->visits++;
	b->timed++;
	b->incl += l->close_busy > l->close_wait ? l->close_busy : l->close_wait;
	b->excl += l->close_wait;
}

void pomp_settle_closes(pomp_loc **locs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (locs[i])
			settle_close(locs[i]);
}

/* end_left ends the C taskloop tasks on top of thread t whose end was
 * not seen, from the thread that ends the run: all of its own, and of
 * another thread those it ran in the closing barrier of a team that has
 * joined since, which a worker only ends when a later team recruits it.
 * end_taskloop writes the current handle of the calling thread: it is
 * kept. */
static void end_left(pomp_thr *t, int own, uint64_t ts)
{
	POMP_Task_handle cur = pomp_thread.current;
	while (t->nfr > 1 && t->task == t->nfr - 1 && tl_pending(&t->fr[t->task])) {
		pomp_frame *f = &t->fr[t->task];
		if (!own) {
			if (!f->team_seq)
				break;
			pomp_loc *p = pomp_g.locs[pomp_g.locs[f->saved_loc]->parent];
			if (__atomic_load_n(&p->join_seq, __ATOMIC_ACQUIRE) != f->team_seq)
				break; /* its team is still on: the thread may go on */
		}
		end_taskloop(t, ts, 0);
	}
	pomp_thread.current = cur;
}

/* initial_own returns the own time of t's initial task until ts. */
static uint64_t initial_own(const pomp_thr *t, uint64_t ts)
{
	const pomp_frame *f = &t->fr[0];
	if (t->nfr == 1 && ts >= f->last)
		return own_time(f, ts);
	return f->excl > f->est ? f->excl - f->est : 0;
}

void pomp_rt_close(int others)
{
	uint64_t ts, end_ns;
	pomp_clock_pair(&ts, &end_ns); /* one moment: the wall time and the last times agree */
	pomp_g.end_ns = end_ns;
	if (pomp_g.mode != POMP_MODE_PROFILE)
		return;
	/* The list only grows at its head, and may be read without the lock
	 * (a forked child ends here in a signal handler). */
	pomp_thr *all = __atomic_load_n(&pomp_g.threads, __ATOMIC_ACQUIRE);
	pomp_thr *me = self_tls;
	for (pomp_thr *t = all; t; t = t->next) {
		if (t == me) {
			end_left(t, 1, ts);
			continue;
		}
		if (!others)
			continue;
		if (!__atomic_load_n(&t->close_pending, __ATOMIC_ACQUIRE))
			continue; /* it left no taskloop task in a closing barrier */
		__atomic_store_n(&t->closing, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&t->recruiting, __ATOMIC_SEQ_CST) && __atomic_load_n(&t->close_pending, __ATOMIC_SEQ_CST)) {
			end_left(t, 0, ts);
			__atomic_store_n(&t->close_pending, 0, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&t->closing, 0, __ATOMIC_RELEASE);
	}
	uint32_t nlocs = __atomic_load_n(&pomp_g.nlocs, __ATOMIC_ACQUIRE);
	for (pomp_thr *t = all; t; t = t->next) {
		if ((t != me && !others) || t->nfr < 1 || t->fr[0].kind != FR_ROOT)
			continue;
		for (uint32_t i = 0; i < nlocs; i++) {
			pomp_loc *l = pomp_g.locs[i];
			if (l->level == 0 && l->num == t->index) {
				l->initial_own = initial_own(t, ts);
				break;
			}
		}
	}
}

void POMP_Parallel_join(POMP_Region *r, POMP_Task_handle encountering)
{
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	uint64_t ts = now();
	pomp_thr *t = self();
	/* The master's implicit task, closing, lies on the fork frame. */
	int i = -1;
	for (int k = t->nfr - 1; k > 0; k--) {
		pomp_frame *f = &t->fr[k];
		if (f->kind == FR_FORK && f->region == r->id) {
			i = k;
			break;
		}
	}
	if (i < 0) {
		t->unmatched++;
		return;
	}
	uint64_t n = 1;
	if (i + 1 < t->nfr && t->fr[i + 1].kind == FR_IMPLICIT && t->fr[i + 1].region == r->id)
		n = t->fr[i + 1].aux;
	pomp_frame *fork = &t->fr[i];
	join_barrier(r->id, fork->saved_loc, fork->aux, n, ts);
	/* Drop the implicit task and anything stale above it. */
	while (t->nfr - 1 > i) {
		pomp_frame *f = top(t);
		if (f->kind == FR_IMPLICIT && f->region == r->id) {
			if (!(f->flags & FL_CLOSING))
				t->unmatched++; /* its end was never seen */
			pop_task(t, f, 0);
			continue;
		}
		drop(t, t->nfr - 2, ts);
	}
	set_loc(t, fork->saved_loc);
	fork->last = ts; /* the team's time is not the fork's own */
	pomp_stat *s = stat_at(t, r->id);
	uint64_t end = close_top(t, s, &s->ph[PH_CONSTRUCT]);
	EV(t, EV_JOIN, r->id, end ? end : ts, 1, encountering, 0, 0);
}

/* ---------------------------------------------------------------------
 * Cleanup handlers, for bodies left by cancellation.
 */
void POMP_Parallel_end_cleanup(POMP_Region **r) { POMP_Parallel_end(*r); }

void POMP_Task_end_cleanup(POMP_Region **r) { POMP_Task_end(*r); }

void POMP_Body_end_cleanup(POMP_Region **r)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_rt_exit(*r, (*r)->kind == POMP_MASTER ? POMP_EV_CONSTRUCT : POMP_EV_BODY);
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
