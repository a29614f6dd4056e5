/*
 * tasks.c — explicit tasks: their creation, begin and end, each with a
 * fast path for the untimed task in an untimed task and the full path
 * for everything else; and what a task's end teaches the sampling (a
 * region's tasks are long, or short).
 */
#include <stdlib.h>
#include "core.h"

/* span_seen records how long a measured instance of region stayed on its
 * thread, for the estimate of unmeasured short instances. A region is
 * short when at most 1% of SAMPLE_EXACT or more measured instances at a
 * location took SHORT_NS or longer (a preempted instance does not change
 * that); the estimate is the mean of its short instances. */
__attribute__((noinline)) void pomp_span_seen(pomp_stat *s, uint32_t region, uint64_t span)
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
__attribute__((noinline)) void pomp_long_seen(pomp_stat *s, uint32_t region)
{
	uint16_t f = pomp_g.rflags[region];
	int lng = s->exec_sum >= s->exec_timed * pomp_g.long_ticks;
	if (lng != ((f & RF_LONG) != 0))
		pomp_g.rflags[region] = (uint16_t)(lng ? f | RF_LONG : f & ~RF_LONG);
}

void pomp_record_pair(pomp_thr *t, POMP_Task_handle id, POMP_Task_handle parent)
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

/* ev_fast records an event of the fast paths, when the thread keeps a
 * stream that takes its type: it reads the clock for it (the frames of
 * the fast paths do not). */
static __attribute__((noinline)) void ev_fast(pomp_thr *t, unsigned type, uint32_t region, int n, uint64_t a, uint64_t b)
{
	if (EV_ON(t, type))
		ev_record(&t->ev, t->index, type, region, now(), n, a, b, 0);
}

/* ev_put records an event at ts, or now when ts is 0, inline: for the
 * functions that run only for a thread that keeps a stream. */
static inline __attribute__((always_inline)) void ev_put(pomp_thr *t, unsigned type, uint32_t region, uint64_t ts, int n, uint64_t a,
                                                         uint64_t b)
{
	if (EV_ON(t, type))
		ev_record(&t->ev, t->index, type, region, ts ? ts : now(), n, a, b, 0);
}

/* ev_at is ev_put out of line, for the entry points. */
static __attribute__((noinline)) void ev_at(pomp_thr *t, unsigned type, uint32_t region, uint64_t ts, int n, uint64_t a, uint64_t b)
{
	ev_put(t, type, region, ts, n, a, b);
}

#define EV_FAST(t, type, region, n, a, b)                               \
	do {                                                            \
		if (__builtin_expect((t)->ev.mask != 0, 0))             \
			ev_fast((t), (type), (region), (n), (a), (b));  \
	} while (0)
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

/* settle_creation ends the creation of a task by an untied task at this
 * thread's next event: the new task was queued before the thread could
 * do anything else. */
__attribute__((noinline)) void pomp_settle_creation(pomp_thr *t)
{
	t->create_untied = 0;
	if (!t->creating)
		return;
	if (t->create_timed)
		created(t, stat_at(t, t->create_region), now() - t->create_start);
	t->creating = 0;
}

/* note_creation notes that t creates task id, the n-th of region
 * (statistics s) created here, from its innermost task, task: the
 * creation depth, and the creation in progress, timed as timed says (0
 * no, 1 certain, 2 a sample). It returns the new task's context but for
 * the runtime's bits (CTX_MEASURED, CTX_LOW): parent's handle and the
 * depth. The full path (create_begin_full) and the fast one (create_body)
 * note here. */
static inline __attribute__((always_inline)) uint64_t note_creation(pomp_thr *t, pomp_frame *task, pomp_stat *s, uint32_t region, uint64_t id,
                                                                    uint64_t n, uint64_t parent, int timed, int traced)
{
	uint32_t depth = task->depth < CTX_DEPTH_MAX ? task->depth + 1 : CTX_DEPTH_MAX;
	s->created = n;
	if (depth > s->max_depth)
		s->max_depth = depth;
	/* An undeferred task begins before any other event of this thread;
	 * every other event clears creating. */
	t->creating = id;
	if (timed || traced)
		t->create_region = region; /* read for a timed creation, or by a stream */
	t->create_timed = timed;
	if (traced)
		task->cid = id; /* read by a stream's CREATE_END only */
	return parent | (uint64_t)depth << CTX_DEPTH_SHIFT;
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
	uint32_t id = r->id;
	pomp_stat *s = stat_at(t, id);
	uint64_t n = s->created + 1;
	add_edge(t, s, task->region, id);
	int m = sampled(t, n, id);
	if (m && sample(n, id))
		m = 2;
	sampled_next(s, n, id);
	info.ctx = note_creation(t, task, s, id, info.id, n, parent, m, 1);
	if (CALLPATHS(t))
		pomp_cp_created(t, info.id);
	if (m) {
		t->create_start = now();
		info.ctx |= m == 2 ? CTX_MEASURED | CTX_LOW : CTX_MEASURED;
	}
	if (t->ev.mask) {
		/* The stream hears the end of every creation. */
		if (!m)
			info.ctx |= CTX_LOW;
		EV(t, EV_CREATE_BEGIN, id, m ? t->create_start : now(), iter == POMP_ITERATION_UNKNOWN ? 1 : 2, info.id, (uint64_t)iter, 0);
	}
	if (__builtin_expect(task->flags & FL_UNTIED, 0)) {
		pomp_park(t, m ? t->create_start : now());
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

/* create_end_full ends a creation on the full path: out of line, so
 * that the entry point's traced cases below need no frame of their own. */
static __attribute__((noinline)) void create_end_full(POMP_Region *r);

void pomp_rt_task_create_end(POMP_Region *r)
{
	pomp_thr *l = lean_self();
	if (lean(l) && !l->create_untied && l->fr[l->task].kind != FR_PARKED) {
		/* A timed creation, untraced: what the full path does below
		 * for a thread whose checks pass. */
		if (l->creating && l->create_region == r->id) {
			l->creating = 0;
			if (l->create_timed)
				created(l, stat_at(l, r->id), now() - l->create_start);
		}
		return;
	}
	pomp_thr *t = pomp_self_tls;
	if (fast(t) && t->creating && !t->create_timed && t->create_region == r->id && !t->create_untied) {
		/* An untimed creation that a stream hears of. */
		t->creating = 0;
		EV_FAST(t, EV_CREATE_END, r->id, 1, t->fr[t->task].cid, 0);
		return;
	}
	if (fast(t) && t->ev.mask && !t->creating && !t->create_untied && t->fr[t->task].kind != FR_PARKED &&
	    t->fr[t->task].cid == t->undeferred) {
		/* An undeferred task's creation, traced: it ended when the
		 * task did, at the thread's last record (as below): in that
		 * record, if it is the task's end. */
		if (!EV_ON(t, EV_CREATE_END) || !ev_end_created(&t->ev, r->id, t->undeferred))
			ev_at(t, EV_CREATE_END, r->id, t->ev.last, 1, t->undeferred, 0);
		return;
	}
	create_end_full(r);
}

static __attribute__((noinline)) void create_end_full(POMP_Region *r)
{
	pomp_thr *t = self();
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
__attribute__((noinline)) void pomp_before_task(pomp_thr *t, int undeferred)
{
	pomp_frame *f = top(t);
	if (tl_pending(f) && !undeferred)
		pomp_end_taskloop(t, now(), 0);
	f = &t->fr[t->task];
	if (f->kind == FR_PARKED && t->task == t->nfr - 1)
		pomp_nested_on_parked(t, f->parked);
}

static __attribute__((noinline)) void task_begin_full(POMP_Region *r, POMP_Task_handle id_, POMP_Task_ctx ctx)
{
	POMP_Task_info info = {id_, ctx};
	POMP_Task_handle parent = ctx & POMP_CTX_PARENT;
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD) {
		pomp_record_pair(t, info.id, parent);
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
		pomp_before_task(t, undeferred);
	uint32_t id = r->id;
	pomp_stat *s = stat_at(t, id);
	int m = (info.ctx & CTX_MEASURED) != 0;
	int untied = (r->flags & POMP_FLAG_UNTIED) != 0;
	uint64_t ts;
	/* Untied tasks are always measured: they may move. */
	pomp_frame *f = push_task(t, id, FR_TASK, m | untied, info.id, CTX_DEPTH(info.ctx), 1, &ts);
	if (CALLPATHS(t))
		pomp_cp_task(t, info.id, ts);
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
		pomp_drop(t, i, now());
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
 * does the same and more. The two share their parts through static
 * inline helpers (core.h, and the helpers of this file that name both
 * paths), so that a fast path is the full one with its special cases
 * left out.
 */

/* Each fast path below has a body written once, inline, with a constant
 * traced: the entry point runs it untraced, lean; a thread that keeps a
 * stream runs it traced, from a function of its own. */

static __attribute__((noinline)) POMP_Task_handle create_sampled(pomp_thr *t, POMP_Region *r, POMP_Task_ctx *ctx);

/* create_body creates a task on the fast path; a traced creation's
 * record carries iter, the creating loop iteration, when it is known.
 * From the instance that s->next_timed names on, sampled decides, and
 * an untraced creation that it times is timed by a copy of this body of
 * its own (timed set), as create_begin_full would time it. */
static inline __attribute__((always_inline)) POMP_Task_handle create_body(pomp_thr *t, POMP_Region *r, POMP_Task_ctx *ctx, const int traced,
                                                                          int64_t iter, const int timed)
{
	/* The checks in the order that keeps the fewest values live: the
	 * instance's number, its frame's region, the edge's counter, then the
	 * new ID (0 when the thread's counter wraps). */
	uint32_t id = r->id;
	pomp_stat *s = &t->stat[id];
	uint64_t n = s->created + 1;
	int m = 0;
	if (timed)
		m = sampled(t, n, id) ? (sample(n, id) ? 2 : 1) : 0;
	else if (__builtin_expect(n >= s->next_timed || !pomp_g.sampling, 0))
		return traced ? create_full(r, ctx, iter) : create_sampled(t, r, ctx); /* sampled may say so */
	pomp_frame *task = &t->fr[t->task];
	unsigned h = edge_slot(task->region, id);
	if (__builtin_expect((task->flags & FL_UNTIED) || t->ecache[h].key != (task->region | t->egen) || t->ecache[h].child != id, 0))
		return create_full(r, ctx, iter);
	POMP_Task_info info;
	info.id = pomp_thread.next;
	if (__builtin_expect((uint32_t)info.id == 0, 0))
		return create_full(r, ctx, iter); /* the counter wrapped: the thread registers again */
	pomp_thread.next = info.id + 1;
	(*t->ecache[h].count)++; /* add_edge, its cache hit known */
	if (timed)
		sampled_next(s, n, id);
	info.ctx = note_creation(t, task, s, id, info.id, n, t->cur_id & POMP_CTX_PARENT, m, traced);
	if (m) {
		t->create_start = now();
		info.ctx |= m == 2 ? CTX_MEASURED | CTX_LOW : CTX_MEASURED;
	}
	if (traced) {
		/* The stream hears the end of every creation. */
		info.ctx |= CTX_LOW;
		ev_put(t, EV_CREATE_BEGIN, id, 0, iter == POMP_ITERATION_UNKNOWN ? 1 : 2, info.id, (uint64_t)iter);
	}
	*ctx = info.ctx;
	return info.id;
}

static __attribute__((noinline)) POMP_Task_handle create_sampled(pomp_thr *t, POMP_Region *r, POMP_Task_ctx *ctx)
{
	return create_body(t, r, ctx, 0, POMP_ITERATION_UNKNOWN, 1);
}

static __attribute__((noinline)) POMP_Task_handle create_traced(pomp_thr *t, POMP_Region *r, POMP_Task_ctx *ctx, int64_t iter)
{
	return create_body(t, r, ctx, 1, iter, 0);
}

/* create_other is the rest of the entry point: the full path, or a
 * thread that keeps a stream. */
static __attribute__((noinline)) POMP_Task_handle create_other(POMP_Region *r, POMP_Task_ctx *ctx)
{
	pomp_thr *t = stream_self();
	if (lean(t) && t->ev.mask && r->id < t->nstat)
		return create_traced(t, r, ctx, POMP_ITERATION_UNKNOWN);
	t = pomp_self_tls;
	if (!fast(t) || r->id >= t->nstat)
		return create_full(r, ctx, POMP_ITERATION_UNKNOWN);
	if (t->ev.mask)
		return create_traced(t, r, ctx, POMP_ITERATION_UNKNOWN);
	return create_body(t, r, ctx, 0, POMP_ITERATION_UNKNOWN, 0);
}

POMP_Task_handle pomp_rt_task_create_begin(POMP_Region *r, POMP_Task_ctx *ctx)
{
	pomp_thr *t = lean_self();
	if (__builtin_expect(!lean(t) || r->id >= t->nstat, 0))
		return create_other(r, ctx);
	return create_body(t, r, ctx, 0, POMP_ITERATION_UNKNOWN, 0);
}

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
	pomp_thr *t = pomp_self_tls;
	if (__builtin_expect(!fast(t) || r->id >= t->nstat, 0))
		return create_full(r, ctx, iter);
	if (__builtin_expect(t->ev.mask != 0, 1))
		return create_traced(t, r, ctx, iter);
	return create_body(t, r, ctx, 0, POMP_ITERATION_UNKNOWN, 0);
}

/* task_push_on pushes the frame of an untimed task, at ts if it read
 * the clock, on t whose innermost task frame is c: the part of a fast
 * task begin after the frame below is dealt with. */
static inline __attribute__((always_inline)) void task_push_on(pomp_thr *t, pomp_frame *c, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx,
                                                               uint64_t ts, const int traced)
{
	uint32_t rid = r->id;
	c->susp++;
	/* An untimed task's frame: its time fields are never read, but for
	 * start and last when it read the clock (FL_TS). */
	push_task_frame(t, rid, FR_TASK, PH_CONSTRUCT, ts ? FL_TS : 0, ts, id, CTX_DEPTH(ctx), 0);
	pomp_stat *s = &t->stat[rid];
	s->executed++;
	if (id == t->creating) {
		s->undeferred++;
		if (traced)
			t->undeferred = id; /* read by a stream's CREATE_END only */
		t->creating = 0;
	}
	if (traced)
		ev_put(t, EV_TASK_BEGIN, rid, ts, 2, id, ctx & POMP_CTX_PARENT);
}

/* task_push is task_push_on the innermost task frame c of t. */
static inline __attribute__((always_inline)) void task_push(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx, uint64_t ts, const int traced)
{
	task_push_on(t, &t->fr[t->task], r, id, ctx, ts, traced);
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

/* task_begin_on_timed begins an untimed task on a timed frame: a short
 * region's task subtracts its mean from the frame, or it reads the clock
 * (task_begin_timed). */
static __attribute__((noinline)) void task_begin_on_timed(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	uint32_t rid = r->id;
	if (!(pomp_g.rflags[rid] & RF_SHORT) || t->tracing)
		return task_begin_timed(t, r, id, ctx);
	t->fr[t->nfr - 1].est += pomp_g.rspan[rid];
	if (t->ev.mask)
		return task_begin_traced(t, r, id, ctx);
	task_push(t, r, id, ctx, 0, 0);
}

/* task_begin_body begins an untimed task on the fast path, its entry
 * point's checks passed, but for the frames below it. */
static inline __attribute__((always_inline)) void task_begin_body(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx,
                                                                  const int traced)
{
	pomp_frame *below = &t->fr[t->nfr - 1];
	pomp_frame *c = &t->fr[t->task];
	if (__builtin_expect(below->kind >= FR_TASKLOOP || (c->flags & (FL_CLOSING | FL_UNTIED)), 0))
		return task_begin_full(r, id, ctx); /* parked untied tasks are FL_UNTIED placeholders */
	if (below->flags & FL_MEASURED)
		return task_begin_on_timed(t, r, id, ctx);
	if (traced)
		return task_begin_traced(t, r, id, ctx);
	/* The push reloads what it reads of t and r, but c, rather than
	 * keep the checks' values in registers: the entry point then saves
	 * none on x86-64 (gcc 12: 59 -> 56 instructions for a fib task, 42
	 * -> 34 before a tiny task's task_begin_on_timed). */
	__asm__("" ::: "memory");
	task_push_on(t, c, r, id, ctx, 0, 0);
}

/* task_begin_ok reports whether t may begin task id of r on a fast path
 * as far as the entry point can tell. */
static inline __attribute__((always_inline)) int task_begin_ok(pomp_thr *t, POMP_Region *r, POMP_Task_handle id)
{
	return id && !(r->flags & POMP_FLAG_UNTIED) && r->id < t->nstat && t->nfr != t->capfr;
}

/* task_begin_measured begins a measured task (its context says so) on a
 * lean thread: what task_begin_full does for a tied task on a thread
 * whose checks pass, and no stream. */
static __attribute__((noinline)) void task_begin_measured(pomp_thr *t, POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	if (t->create_untied || t->fr[t->nfr - 1].kind >= FR_TASKLOOP || (t->fr[t->task].flags & FL_UNTIED))
		return task_begin_full(r, id, ctx);
	uint32_t rid = r->id;
	uint64_t ts;
	pomp_frame *f = push_task(t, rid, FR_TASK, 1, id, CTX_DEPTH(ctx), 1, &ts);
	if (CTX_POOL(ctx))
		f->flags |= FL_POOL;
	pomp_stat *s = &t->stat[rid];
	s->executed++;
	if (id == t->creating) {
		s->undeferred++;
		t->creating = 0;
		if (t->create_timed)
			created(t, stat_at(t, t->create_region), ts - t->create_start);
	}
}

/* task_begin_other is the rest of the entry point: the full path, or a
 * thread that keeps a stream. */
static __attribute__((noinline)) void task_begin_other(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	pomp_thr *t = stream_self();
	if (lean(t) && t->ev.mask && task_begin_ok(t, r, id) && !(ctx & CTX_MEASURED))
		return task_begin_body(t, r, id, ctx, 1);
	t = pomp_self_tls;
	if (!fast(t) || !task_begin_ok(t, r, id) || (ctx & CTX_MEASURED))
		return task_begin_full(r, id, ctx);
	task_begin_body(t, r, id, ctx, t->ev.mask != 0);
}

void pomp_rt_task_begin(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx)
{
	pomp_thr *t = lean_self();
	if (__builtin_expect(!lean(t) || !task_begin_ok(t, r, id), 0))
		return task_begin_other(r, id, ctx);
	if (__builtin_expect(ctx & CTX_MEASURED, 0))
		return task_begin_measured(t, r, id, ctx);
	task_begin_body(t, r, id, ctx, 0);
}

/* task_pop pops the frame of an untimed task, f, on top of t. */
static inline __attribute__((always_inline)) void task_pop(pomp_thr *t, pomp_frame *f, uint32_t rid)
{
	t->creating = 0;
	pomp_stat *s = &t->stat[rid];
	count_task_end(s, &s->ph[PH_CONSTRUCT], f);
	t->task = f->prev_task;
	t->nfr--;
	resume_task(t);
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
		span_untimed(&t->stat[r->id], f, ts);
	}
	if (t->ev.mask)
		ev_put(t, EV_TASK_END, r->id, ts, 1, f->id, 0);
	task_pop(t, f, r->id);
}

/* task_end_body ends an untimed task on the fast path; traced says
 * whether t may keep a stream. */
static inline __attribute__((always_inline)) void task_end_body(pomp_thr *t, POMP_Region *r, const int traced)
{
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	uint32_t rid = r->id;
	if (__builtin_expect(f->kind != FR_TASK || f->region != rid || i != t->nfr - 1 ||
	                             (f->flags & (FL_MEASURED | FL_UNTIED)) || rid >= t->nstat,
	                     0))
		return task_end_full(r);
	if (__builtin_expect((f->flags & FL_TS) || (traced && t->ev.mask), 0))
		return task_end_timed(t, r, f);
	task_pop(t, f, rid);
}

/* task_end_other is the rest of the entry point: the full path, or a
 * thread that keeps a stream. */
static __attribute__((noinline)) void task_end_other(POMP_Region *r)
{
	pomp_thr *t = stream_self();
	if (lean(t) && t->ev.mask)
		return task_end_body(t, r, 1);
	t = pomp_self_tls;
	if (!fast(t))
		return task_end_full(r);
	task_end_body(t, r, 1);
}

/* task_end_lean is the rest of the entry point for a lean thread: a
 * task frame with flags, or not on top. A measured task's goes to the
 * full path at once. */
static __attribute__((noinline)) void task_end_lean(pomp_thr *t, POMP_Region *r)
{
	if (t->fr[t->task].flags & FL_MEASURED)
		return task_end_full(r);
	task_end_body(t, r, 0);
}

/* The entry point ends an untimed task on top of a lean thread's stack
 * whose frame has no flags (as task_push leaves it) after one compare
 * of its head: what task_end_body checks in four. */
void pomp_rt_task_end(POMP_Region *r)
{
	pomp_thr *t = lean_self();
	if (__builtin_expect(!lean(t), 0))
		return task_end_other(r);
	int i = t->task;
	pomp_frame *f = &t->fr[i];
	uint32_t rid = r->id;
	if (__builtin_expect(frame_head(f) != frame_head_of(rid, FR_TASK, PH_CONSTRUCT, 0) || i != t->nfr - 1 || rid >= t->nstat, 0))
		return task_end_lean(t, r);
	task_pop(t, f, rid);
}
