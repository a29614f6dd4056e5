/*
 * taskloop.c — taskloops: the construct on the encountering thread, the
 * loop's trip count and schedule, and the tasks it generates, whose end
 * in C is known from their last iteration or bounded by the taskloop's.
 */
#include "core.h"

/* ---------------------------------------------------------------------
 * Taskloop tasks in C. A task's last iteration ends it (FL_ENDED) when
 * the runtime knows how many iterations it has; its frame is popped at
 * the thread's next event, which is how a task whose iterations are only
 * counted (FL_COUNTING: a loop gopari cannot read) is seen to end.
 */
void pomp_end_taskloop(pomp_thr *t, uint64_t ts, uint64_t iters);

/* tl_bound returns the latest time at which the taskloop task f can have
 * ended, given that the thread noticed at ts. */
uint64_t pomp_tl_bound(const pomp_frame *f, uint64_t ts)
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

/* end_counted ends the C taskloop tasks on top of t whose iterations are
 * only counted: the thread leaves a construct below them, so they ended
 * (run in a barrier the compiler added, say). It reports whether it ended
 * one. */
int pomp_end_counted(pomp_thr *t)
{
	int n = 0;
	for (; t->task == t->nfr - 1 && tl_pending(&t->fr[t->task]); n++)
		pomp_end_taskloop(t, now(), 0);
	return n;
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
	if (CALLPATHS(t))
		pomp_cp_taskloop_enter(t, in);
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
		pomp_record_pair(t, id, tl->parent);
		pomp_thread.current = id;
		if (!cxx)
			tl->count = TL_NEVER;
		return;
	}
	CHECK(t);
	t->creating = 0;
	if (t->fr[t->nfr - 1].kind >= FR_TASKLOOP)
		pomp_before_task(t, 0);
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
	if (CALLPATHS(t))
		pomp_cp_taskloop_task(t, f->tl, f->tl_seq, ts);
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
		pomp_drop(t, i, now());
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
void pomp_end_taskloop(pomp_thr *t, uint64_t ts, uint64_t iters)
{
	pomp_frame *f = top(t);
	if (!(f->flags & FL_CXX)) {
		ts = f->flags & FL_ENDED ? f->tl_end : pomp_tl_bound(f, ts);
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
		pomp_drop(t, i, now());
	pomp_end_taskloop(t, f->flags & FL_TS ? now() : 0, tl->count);
}
