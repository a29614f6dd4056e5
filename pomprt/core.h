/*
 * core.h — the per-event core of libpomp, private to its C files: the
 * clock read, the calling thread's state, its frame stack and its
 * statistics, as static inline functions that the fast paths (regions.c,
 * tasks.c) and the full paths alike inline, and the functions of the
 * other files that they call out of line. How time is attributed, and
 * when it is sampled, is described in rt.h.
 *
 * The runtime's C, by subsystem:
 *   clock.c     the timer and its calibration
 *   env.c       the GOPARI_* variables, the mode, POMP_On/POMP_Off
 *   threads.c   regions, threads, locations, statistics arrays, the frame stack's memory
 *   switch.c    untied tasks that move, and following the thread's current handle
 *   regions.c   region phases (enter, exit), fast and full paths
 *   tasks.c     task creation, begin and end, fast and full paths
 *   taskloop.c  taskloops and their generated tasks
 *   parallel.c  parallel regions: fork, implicit tasks, closing barrier, join
 *   locks.c, chunks.c, events.c: locks, loop chunks, the event stream
 *   lifecycle.c, signals.c, fork.c, snapshot.c: start-up, exit, signals, fork
 *   callpath.c  call paths: the function hooks and the tree of paths
 *   callcost.c  what one measured call costs (callpath.h: their shared types)
 *   sample.c    sampled call paths: per-thread timers, the unwinding handler
 * Every symbol shared between them is named pomp_*: libpomp.a links
 * into the user's program.
 */
#ifndef POMP_CORE_H
#define POMP_CORE_H

#include "rt.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define POMP_HAVE_TSC 1
#endif

/* clock.c */
extern int pomp_use_tsc __attribute__((visibility("hidden"))); /* hidden: read directly, not through the GOT */
void pomp_calibrate_long(uint64_t ts);

/* env.c */
void pomp_configure(void);

/* threads.c */
extern __thread pomp_thr *pomp_self_tls __attribute__((tls_model("initial-exec")));
void pomp_thread_slow(pomp_thr *t, uint8_t why);
pomp_thr *pomp_register_thread(void);
uint32_t pomp_root_loc(pomp_thr *t);
uint32_t pomp_child_loc(pomp_thr *t, uint32_t parent, uint32_t num);
void pomp_set_loc(pomp_thr *t, uint32_t i);
pomp_stat *pomp_stat_slow(pomp_thr *t, uint32_t region);
void pomp_edge_slow(pomp_thr *t, pomp_stat *s, uint32_t parent, uint32_t child, unsigned h);
void pomp_grow_frames(pomp_thr *t);

/* switch.c */
void pomp_park(pomp_thr *t, uint64_t ts);
void pomp_unpark_here(pomp_thr *t);
void pomp_nested_on_parked(pomp_thr *t, pomp_parked *p);
int pomp_drop(pomp_thr *t, int keep, uint64_t ts);
void pomp_resync(pomp_thr *t);

/* tasks.c */
void pomp_span_seen(pomp_stat *s, uint32_t region, uint64_t span);
void pomp_long_seen(pomp_stat *s, uint32_t region);
void pomp_record_pair(pomp_thr *t, POMP_Task_handle id, POMP_Task_handle parent);
void pomp_settle_creation(pomp_thr *t);
void pomp_before_task(pomp_thr *t, int undeferred);

/* callpath.c: with SLOW_CALLPATH, every frame change is told */
void pomp_cp_thread_new(pomp_thr *t);
void pomp_cp_push(pomp_thr *t, uint64_t ts);
void pomp_cp_pop(pomp_thr *t, uint64_t ts);
void pomp_cp_implicit(pomp_thr *t, uint32_t parent, uint64_t ts);
void pomp_cp_closing(pomp_thr *t, int i, uint64_t ts);
void pomp_cp_created(pomp_thr *t, uint64_t id);
void pomp_cp_task(pomp_thr *t, uint64_t id, uint64_t ts);
void pomp_cp_taskloop_enter(pomp_thr *t, pomp_tlinst *in);
void pomp_cp_taskloop_task(pomp_thr *t, const pomp_tlinst *in, uint64_t seq, uint64_t ts);
void pomp_cp_sync(pomp_thr *t, uint64_t ts);
void pomp_cp_flush(pomp_thr *t, uint64_t ts);
uint64_t pomp_cp_cost(pomp_thr *t, int *pairs);
uint64_t pomp_cp_probe(void);
extern uint64_t pomp_cp_cost_ticks;
extern int pomp_cp_cost_pairs;
void pomp_cp_park(pomp_thr *t, pomp_parked *p, int i);
void pomp_cp_unpark(pomp_thr *t, pomp_parked *p, int base, uint64_t ts);

/* callpath.c, for sample.c: call paths on from start-up on t (0 if
 * they cannot be); t's current path, for its signal handler. */
int pomp_cp_sampled(pomp_thr *t);
uint32_t pomp_cp_current(const pomp_thr *t);

#define CALLPATHS(t) __builtin_expect((t)->slow & SLOW_CALLPATH, 0)

/* sample.c: GOPARI_SAMPLE_HZ */
void pomp_sample_start(pomp_thr *t);
void pomp_sample_thread_new(void);
void pomp_sample_stop(void);

/* taskloop.c */
uint64_t pomp_tl_bound(const pomp_frame *f, uint64_t ts);
int pomp_end_counted(pomp_thr *t);
void pomp_end_taskloop(pomp_thr *t, uint64_t ts, uint64_t iters);

/* libomp's entry points, weak: present when the program runs on LLVM's
 * OpenMP runtime. */
extern int __kmpc_global_thread_num(void *) __attribute__((weak));

static inline int libomp(void) { return __kmpc_global_thread_num != NULL; }

/* OpenMP routines, weak so that libpomp links into programs without
 * OpenMP; absent, they behave as in a sequential program. */
extern int omp_get_thread_num(void) __attribute__((weak));
extern int omp_get_num_threads(void) __attribute__((weak));

static inline int thread_num(void) { return omp_get_thread_num ? omp_get_thread_num() : 0; }

/* EV appends a record to the thread's event stream if its mask takes the
 * type: one check per event (events.h). */
#define EV_ON(t, type) __builtin_expect(((t)->ev.mask >> (type)) & 1, 0)
#define EV(t, type, region, ts, n, a, b, c)                                              \
	do {                                                                             \
		if (EV_ON(t, type))                                                      \
			ev_record(&(t)->ev, (t)->index, (type), (region), (ts), (n), (a), (b), (c)); \
	} while (0)

#ifdef POMP_COUNT_NOW /* a test build: how often the clock is read */
extern uint64_t pomp_now_calls;
#define COUNT_NOW() (pomp_now_calls++)
#else
#define COUNT_NOW() ((void)0)
#endif

static inline uint64_t now(void)
{
	COUNT_NOW();
#ifdef POMP_HAVE_TSC
	if (__builtin_expect(pomp_use_tsc, 1))
		return __rdtsc();
#endif
	return pomp_ns();
}

static inline pomp_thr *self(void)
{
	pomp_thr *t = pomp_self_tls;
	if (__builtin_expect(t != NULL, 1))
		return t;
	return pomp_register_thread();
}

static inline __attribute__((always_inline)) pomp_loc *cur_loc(pomp_thr *t)
{
	if (__builtin_expect(!t->has_loc, 0))
		pomp_set_loc(t, pomp_root_loc(t));
	return pomp_g.locs[t->loc];
}

static inline __attribute__((always_inline)) pomp_stat *stat_at(pomp_thr *t, uint32_t region)
{
	if (__builtin_expect(region < t->nstat, 1))
		return &t->stat[region];
	return pomp_stat_slow(t, region);
}

/* edge_slot returns the slot of the pair (parent, child) in the cache of
 * creation-tree counters (pomp_thr.ecache). */
static inline __attribute__((always_inline)) unsigned edge_slot(uint32_t parent, uint32_t child) { return (parent * 8u + child) & 63; }

/* add_edge counts a child of region child (statistics s) created by a
 * task of region parent. The memory grows with the pairs of regions, not
 * with tasks; a small cache per thread finds the counter. */
static inline __attribute__((always_inline)) void add_edge(pomp_thr *t, pomp_stat *s, uint32_t parent, uint32_t child)
{
	unsigned h = edge_slot(parent, child);
	if (__builtin_expect(t->ecache[h].key == (parent | t->egen) && t->ecache[h].child == child, 1))
		(*t->ecache[h].count)++;
	else
		pomp_edge_slow(t, s, parent, child, h);
}

/* sampled decides whether the n-th instance of region created here is
 * measured. */
static inline __attribute__((always_inline)) int sampled(pomp_thr *t, uint64_t n, uint32_t region)
{
	(void)t;
	return n <= SAMPLE_EXACT || (n & (SAMPLE_EVERY - 1)) == 0 || !pomp_g.sampling || (pomp_g.rflags[region] & RF_LONG);
}

/* sampled_next notes in s that the creation of its n-th instance, of
 * region, was decided: the next that sampled may time, which is the
 * next one while it times all (the fast paths check this alone). A
 * region found long (RF_LONG) after this is timed in full from the
 * next sampled instance on, at most SAMPLE_EVERY instances later. */
static inline void sampled_next(pomp_stat *s, uint64_t n, uint32_t region)
{
	if (n < SAMPLE_EXACT || (pomp_g.rflags[region] & RF_LONG))
		s->next_timed = 0;
	else
		s->next_timed = (n | (SAMPLE_EVERY - 1)) + 1;
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

static inline __attribute__((always_inline)) pomp_frame *push(pomp_thr *t)
{
	if (__builtin_expect(t->nfr == t->capfr, 0))
		pomp_grow_frames(t);
	return &t->fr[t->nfr++];
}

/* frame_head returns the first 8 bytes of frame f: its region, kind,
 * phase and flags, which frame_head_of builds, so that a fast path
 * checks the four in one compare. */
static inline __attribute__((always_inline)) uint64_t frame_head(const pomp_frame *f)
{
	uint64_t h;
	__builtin_memcpy(&h, f, sizeof h);
	return h;
}

static inline __attribute__((always_inline)) uint64_t frame_head_of(uint32_t region, int kind, int phase, int flags)
{
	return region | (uint64_t)(uint8_t)kind << 32 | (uint64_t)(uint8_t)phase << 40 | (uint64_t)(uint16_t)flags << 48;
}

_Static_assert(__builtin_offsetof(pomp_frame, kind) == 4 && __builtin_offsetof(pomp_frame, phase) == 5 &&
                   __builtin_offsetof(pomp_frame, flags) == 6 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "a frame's head is region, kind, phase and flags in 8 bytes, little-endian");

static inline __attribute__((always_inline)) pomp_frame *top(pomp_thr *t) { return &t->fr[t->nfr - 1]; }

/* init_frame fills frame f of region, kind and phase, opened at ts (0 if
 * it did not read the clock), with flags FL_*. timed, a constant, says
 * whether its own time (excl) starts at 0 too: the frame of an untimed
 * task never reads it (tasks.c, task_push), nor its start and last
 * unless it read the clock (FL_TS). */
static inline __attribute__((always_inline)) void init_frame(pomp_frame *f, uint32_t region, int kind, int phase, int flags, uint64_t ts, const int timed)
{
	f->region = region;
	f->kind = (uint8_t)kind;
	f->phase = (uint8_t)phase;
	f->flags = (uint16_t)flags;
	if (timed || (flags & FL_TS))
		f->start = f->last = ts;
	if (timed)
		f->excl = 0;
	f->est = 0;
}

/* push_phase pushes a frame of a region phase on t's stack, opened at
 * ts (0 if it did not read the clock), with flags FL_*; the caller has
 * made room for it and counted it open (pomp_stat.active). The full
 * path (open_phase_at) and the fast one (regions.c, enter_body) push
 * their frames here. */
static inline __attribute__((always_inline)) pomp_frame *push_phase(pomp_thr *t, uint32_t region, int kind, int phase, int flags, uint64_t ts)
{
	pomp_frame *f = &t->fr[t->nfr++];
	init_frame(f, region, kind, phase, flags, ts, 1);
	return f;
}

/* open_phase_at pushes a frame of a region phase (statistics s) on t's
 * stack. The frame reads the clock if it is measured (its task is), or if
 * it is the outermost frame of its region and phase here (for the
 * inclusive time) — or takes at, a time read already, if not 0; *ts is
 * the time taken, or 0. A frame on top of a measured frame is measured
 * itself: they belong to one task. */
static inline __attribute__((always_inline)) pomp_frame *open_phase_at(pomp_thr *t, pomp_stat *s, uint32_t region, int kind, int phase, int measured, uint64_t at, uint64_t *ts)
{
	if (__builtin_expect(t->nfr == t->capfr, 0))
		pomp_grow_frames(t);
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
	pomp_frame *f = push_phase(t, region, kind, phase, flags, now_ts);
	*ts = now_ts;
	if (CALLPATHS(t))
		pomp_cp_push(t, now_ts);
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

/* pop_phase pops the top frame, of phase ph, and counts its visit in
 * p, of statistics s: all that closing an untimed frame takes. The full
 * path (close_top_at) and the fast one (regions.c, exit_body) pop their
 * frames here. */
static inline __attribute__((always_inline)) void pop_phase(pomp_thr *t, pomp_stat *s, pomp_phase *p, int ph)
{
	p->visits++;
	s->active[ph]--;
	t->nfr--;
}

/* close_top_at pops the top frame, a phase or fork frame, into phase p
 * of s, closed at ts if it is timed (FL_TS). */
static inline __attribute__((always_inline)) void close_top_at(pomp_thr *t, pomp_stat *s, pomp_phase *p, uint64_t ts)
{
	pomp_frame *f = &t->fr[t->nfr - 1];
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
	pop_phase(t, s, p, f->phase);
	pomp_frame *below = &t->fr[t->nfr - 1];
	if (below->flags & FL_MEASURED)
		below->last = ts;
	if (CALLPATHS(t))
		pomp_cp_pop(t, ts);
}

/* close_top pops the top frame, a phase or fork frame, into phase p of
 * s, and returns the time read, or 0. */
static inline __attribute__((always_inline)) uint64_t close_top(pomp_thr *t, pomp_stat *s, pomp_phase *p)
{
	uint64_t ts = (t->fr[t->nfr - 1].flags & FL_TS) ? now() : 0;
	close_top_at(t, s, p, ts);
	return ts;
}

/* light is the mark a point construct of an untimed task leaves on the
 * task's frame instead of a frame of its own (see pomp_rt_enter): its
 * region and phase, inverted, so that no estimate of ticks (pomp_frame.est
 * of a measured frame) equals it (exit_light). */
static inline uint64_t light(uint32_t region, int ph) { return ~((uint64_t)region << 2 | (uint64_t)ph); }

/* phase_of returns the phase of an event code of pomp_rt_enter and
 * pomp_rt_exit: the codes are the phases' numbers. */
_Static_assert((int)POMP_EV_CONSTRUCT == (int)PH_CONSTRUCT && (int)POMP_EV_BODY == (int)PH_BODY && (int)POMP_EV_BARRIER == (int)PH_BARRIER &&
                   (int)POMP_EV_WAIT == (int)PH_WAIT && PH_COUNT == 4,
               "event codes are phases");
static inline int phase_of(int ev) { return ev & (PH_COUNT - 1); }

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

/* task_measured reports whether the innermost task of t is measured. */
static inline __attribute__((always_inline)) int task_measured(const pomp_thr *t) { return (t->fr[t->task].flags & FL_MEASURED) != 0; }

/* push_task_frame pushes the frame of task id (region, kind, phase,
 * creation depth) opened at ts (0 if it did not read the clock) with
 * flags FL_*, and makes it t's current task, measured or not. The caller
 * has made room for it and dealt with the frames below. timed, a
 * constant, says whether its time fields start at 0: an untimed task's
 * are never read, but for start and last when it read the clock (FL_TS).
 * The full path (push_task) and the fast one (tasks.c, task_push) push
 * their task frames here. */
static inline __attribute__((always_inline)) pomp_frame *push_task_frame(pomp_thr *t, uint32_t region, int kind, int phase, int flags, uint64_t ts,
                                                                         uint64_t id, uint32_t depth, const int timed)
{
	pomp_frame *f = &t->fr[t->nfr++];
	init_frame(f, region, kind, phase, flags, ts, timed);
	if (timed)
		f->exec = 0;
	f->id = id;
	f->susp = 0;
	f->prev_task = t->task;
	f->depth = depth;
	t->task = t->nfr - 1;
	t->cur_id = id;
	pomp_thread.current = id;
	return f;
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
		pomp_grow_frames(t);
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
	/* A taskloop's generated tasks are its body; its construct phase is
	 * the taskloop on the encountering thread. */
	int phase = kind == FR_IMPLICIT || kind == FR_TASKLOOP ? PH_BODY : PH_CONSTRUCT;
	pomp_frame *f = push_task_frame(t, region, kind, phase, flags, now_ts, id, depth, 1);
	*ts = now_ts;
	return f;
}

/* resume_task makes t's innermost task frame its current task again,
 * a task frame above it popped. The full path (pop_task) and the fast one
 * (tasks.c, task_pop) resume here. */
static inline __attribute__((always_inline)) void resume_task(pomp_thr *t)
{
	pomp_frame *c = &t->fr[t->task];
	t->cur_id = c->id;
	pomp_thread.current = c->id;
}

/* left_barrier reports whether the closing barrier whose implicit task
 * lies on t's stack is over for t: a later team is recruiting t (which
 * then ends the C taskloop tasks it ran there, pomp_end_taskloop), or the
 * end of the run ends them from another thread. The master's join has
 * counted such a task from the location's close_pend_start, and the
 * location may be another thread's in a later team by now: the task must
 * not touch the location's record of the barrier (pomp_loc.close_*). */
static inline int left_barrier(const pomp_thr *t)
{
	return __atomic_load_n(&t->recruiting, __ATOMIC_RELAXED) || t != pomp_self_tls;
}

/* pop_task pops the task frame on top of t at time ts (0 if it did not
 * read the clock) and makes the task below current again. */
static inline __attribute__((always_inline)) void pop_task(pomp_thr *t, pomp_frame *f, uint64_t ts)
{
	t->task = f->prev_task;
	t->nfr--;
	if (f->flags & FL_TS) {
		pomp_frame *below = &t->fr[t->nfr - 1];
		if (__builtin_expect(below->flags & FL_CLOSING, 0) && ts && !left_barrier(t)) {
			pomp_loc *l = pomp_g.locs[t->loc];
			l->close_tasks += ts - f->start; /* run in the closing barrier */
			l->close_pend_start = 0;
		}
		if (below->flags & FL_MEASURED)
			below->last = ts;
	}
	resume_task(t);
	if (CALLPATHS(t))
		pomp_cp_pop(t, ts);
}

/* count_task_end counts the end of task frame f in phase p of its
 * region's statistics s: all that the end of an untimed task takes. The
 * full path (end_task_stats) and the fast one (tasks.c, task_pop) count
 * here. */
static inline __attribute__((always_inline)) void count_task_end(pomp_stat *s, pomp_phase *p, const pomp_frame *f)
{
	p->visits++;
	s->suspensions += f->susp;
}

/* span_untimed: an untimed task that read the clock at both ends (f,
 * ended at ts) tells, as a measured instance does, whether its region is
 * short. Until that is known, every such task on a timed frame reads the
 * clock, and the decision would otherwise wait for samples, one in
 * SAMPLE_EVERY. */
static inline void span_untimed(pomp_stat *s, const pomp_frame *f, uint64_t ts)
{
	if (f->kind == FR_TASK && pomp_g.sampling && !(pomp_g.rflags[f->region] & RF_SHORT))
		pomp_span_seen(s, f->region, ts - f->start);
}

/* end_task_stats accounts the end of task frame f (statistics s) at ts.
 * A task's inclusive time is its execution: its own time and that of the
 * regions it ran, not the tasks that ran while it was suspended. */
static inline __attribute__((always_inline)) void end_task_stats(pomp_thr *t, pomp_frame *f, pomp_stat *s, uint64_t ts)
{
	pomp_phase *p = &s->ph[f->phase];
	count_task_end(s, p, f);
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
			pomp_long_seen(s, f->region);
		if (f->kind == FR_TASK && pomp_g.sampling)
			pomp_span_seen(s, f->region, ts - f->start);
	} else if ((f->flags & FL_TS) && ts) {
		span_untimed(s, f, ts);
	}
	(void)t;
}

/* tl_pending reports a C taskloop task on the stack that has ended, or
 * may have: its end is seen at the thread's next event. */
static inline int tl_pending(const pomp_frame *f)
{
	return f->kind == FR_TASKLOOP && (f->flags & (FL_ENDED | FL_COUNTING));
}

/* CHECK follows the thread's current handle, and ends the creation of a
 * task by an untied task: see settle_creation. */
#define CHECK(t)                                                                             \
	do {                                                                                 \
		if (__builtin_expect((t)->create_untied, 0))                                 \
			pomp_settle_creation(t);                                                  \
		if (__builtin_expect(pomp_thread.current != (t)->cur_id, 0))                \
			pomp_resync(t);                                                           \
	} while (0)

/* fast reports whether thread t can take a fast path: its handle is the
 * one the runtime expects, and it is not in record mode (pomp_thr.slow).
 * The placeholder of a parked untied task is a timed, untied task frame
 * to the fast paths: they leave everything on it to the full ones. */
static inline __attribute__((always_inline)) int fast(pomp_thr *t)
{
	return t && pomp_thread.current == t->cur_id && !t->slow;
}

/* lean_self returns the calling thread's state when it may take the
 * fast paths untraced: registered, neither slow nor keeping a stream
 * (threads.c); else a placeholder whose cur_id no handle matches. With
 * lean, one check of the thread's handle at an entry point is all of
 * fast's and the stream's: the rest goes to the entry's other path. */
static inline __attribute__((always_inline)) pomp_thr *lean_self(void) { return (pomp_thr *)pomp_thread.rt_lean; }

static inline __attribute__((always_inline)) int lean(const pomp_thr *t) { return pomp_thread.current == t->cur_id; }

/* stream_self is lean_self for the fast paths traced: the calling
 * thread's state when it is registered, not slow and keeps a stream
 * (whose mask a forked child clears: check it), else the placeholder. */
static inline __attribute__((always_inline)) pomp_thr *stream_self(void) { return (pomp_thr *)pomp_thread.rt_stream; }

/* unpark_if_parked continues the untied task whose placeholder is the
 * innermost task of t: an event of the task's own code happens here. */
static inline __attribute__((always_inline)) void unpark_if_parked(pomp_thr *t)
{
	if (__builtin_expect(t->fr[t->task].kind == FR_PARKED, 0))
		pomp_unpark_here(t);
}

/* index returns the logical number of value v of a loop from lb by step. */
static inline uint64_t index_of(long long lb, long long step, long long v)
{
	if (step > 0)
		return ((uint64_t)v - (uint64_t)lb) / (uint64_t)step;
	return ((uint64_t)lb - (uint64_t)v) / -(uint64_t)step;
}

#endif
