/*
 * parallel.c — parallel regions: the fork on the encountering thread, the
 * implicit tasks of the team, the closing barrier's waits computed at the
 * join, and the cleanup handlers of bodies left by cancellation.
 */
#include "core.h"

/* cpu_relax is the body of a short spin-wait loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
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
	pomp_calibrate_long(ts);
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
		pomp_drop(t, 0, ts);
}

void POMP_Parallel_begin(POMP_Region *r, POMP_Task_handle encountering, POMP_Task_info team)
{
	if (pomp_mode == POMP_MODE_OFF)
		return;
	pomp_thr *t = self();
	POMP_Task_handle id = POMP_New_task_id();
	pomp_thread.current = id;
	if (pomp_mode == POMP_MODE_RECORD) {
		pomp_record_pair(t, id, encountering);
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
	if (CALLPATHS(t))
		pomp_cp_sync(t, 0); /* the path so far is the old location's */
	pomp_set_loc(t, pomp_child_loc(t, parent, (uint32_t)thread_num()));
	pomp_loc *l = pomp_g.locs[t->loc];
	settle_close(l);
	l->implicit_tasks++;
	l->close_seq = team.ctx;
	l->close_end = 0;
	l->close_tasks = 0;
	uint64_t ts;
	pomp_frame *f = push_task(t, r->id, FR_IMPLICIT, 1, id, 0, 0, &ts);
	if (CALLPATHS(t))
		pomp_cp_implicit(t, parent, ts);
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
	if (f->kind != FR_IMPLICIT && pomp_end_counted(t))
		f = &t->fr[i = t->task];
	if (f->kind != FR_IMPLICIT || f->region != r->id || (f->flags & FL_CLOSING)) {
		t->unmatched++;
		return;
	}
	uint64_t ts = now();
	if (i != t->nfr - 1)
		pomp_drop(t, i, ts);
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
	if (CALLPATHS(t))
		pomp_cp_closing(t, i, ts);
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
			uint64_t end = l->close_pend_end ? l->close_pend_end : pomp_tl_bound(&pf, ts);
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
		pomp_drop(t, t->nfr - 2, ts);
	}
	pomp_set_loc(t, fork->saved_loc);
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
