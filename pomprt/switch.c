/*
 * switch.c — switching a thread's current task outside the task events:
 * untied tasks that may move to another thread at a scheduling point,
 * and following the thread's current handle when it is not the task the
 * runtime expects (resync).
 */
#include <stdlib.h>
#include <string.h>
#include "core.h"

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
__attribute__((noinline)) void pomp_park(pomp_thr *t, uint64_t ts)
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
	if (CALLPATHS(t))
		pomp_cp_park(t, p, i);
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
}

/* unpark_frames pushes the frames of p on t's stack at time ts; the caller
 * holds park_mu, and t's innermost task is suspended already. */
static void unpark_frames(pomp_thr *t, pomp_parked *p, uint64_t ts, int moved)
{
	int base = t->nfr;
	while (t->nfr + p->nfr > t->capfr)
		pomp_grow_frames(t);
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
	if (CALLPATHS(t))
		pomp_cp_unpark(t, p, base, ts);
}

void pomp_resync(pomp_thr *t);

/* unpark_here brings back the frames of the untied task parked on t (its
 * placeholder on top) when the task continues here. */
__attribute__((noinline)) void pomp_unpark_here(pomp_thr *t)
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
		pomp_resync(t);
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
__attribute__((noinline)) void pomp_nested_on_parked(pomp_thr *t, pomp_parked *p)
{
	pthread_mutex_lock(&pomp_g.park_mu);
	if (p->owner == t)
		p->nested++;
	pthread_mutex_unlock(&pomp_g.park_mu);
}

/* ---------------------------------------------------------------------
 * Resynchronization: the thread's current handle is not the task the
 * runtime expects.
 */

/* drop pops the frames of t above index keep, at time ts: stale frames
 * quietly (closing implicit tasks, placeholders of parked tasks, C
 * taskloop tasks that ended), the others as unmatched. It returns how
 * many frames went without an end record in the event stream. */
int pomp_drop(pomp_thr *t, int keep, uint64_t ts)
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
			continue;
		case FR_TASKLOOP:
			if (tl_pending(f)) {
				pomp_end_taskloop(t, ts, 0);
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
	if (CALLPATHS(t))
		pomp_cp_sync(t, ts);
	return silent;
}

/* resync makes the runtime follow the thread's current handle: a task
 * below on this thread's stack, or an untied task parked by another. */
__attribute__((noinline)) void pomp_resync(pomp_thr *t)
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
			if (pomp_drop(t, above - 1, ts))
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
