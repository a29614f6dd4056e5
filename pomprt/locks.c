/*
 * locks.c — the OpenMP lock routines, wrapped: each wrapper calls the
 * routine and records, per call site, how often a lock was acquired and
 * how long acquiring it waited.
 */
#include <stdio.h>
#include <stdlib.h>
#include "rt.h"

/* Weak, so that libpomp links into programs without OpenMP. */
extern void omp_init_lock(void *) __attribute__((weak));
extern void omp_init_lock_with_hint(void *, int) __attribute__((weak));
extern void omp_destroy_lock(void *) __attribute__((weak));
extern void omp_set_lock(void *) __attribute__((weak));
extern void omp_unset_lock(void *) __attribute__((weak));
extern int omp_test_lock(void *) __attribute__((weak));
extern void omp_init_nest_lock(void *) __attribute__((weak));
extern void omp_init_nest_lock_with_hint(void *, int) __attribute__((weak));
extern void omp_destroy_nest_lock(void *) __attribute__((weak));
extern void omp_set_nest_lock(void *) __attribute__((weak));
extern void omp_unset_nest_lock(void *) __attribute__((weak));
extern int omp_test_nest_lock(void *) __attribute__((weak));

static void missing(const char *fn)
{
	fprintf(stderr, "gopari: %s called, but the program is not linked with an OpenMP runtime\n", fn);
	abort();
}

#define CALLV(fn, ...)                  \
	do {                            \
		if (fn)                 \
			fn(__VA_ARGS__); \
		else                    \
			missing(#fn);   \
	} while (0)
#define CALL(fn, ...) (fn ? fn(__VA_ARGS__) : (missing(#fn), 0))

/* trace records a call of a lock routine in the event stream: ENTER at
 * t0, the acquisition or release of lock l (type, or 0), EXIT at t1. */
static void trace(pomp_thr *t, POMP_Region *r, uint64_t t0, unsigned type, void *l, uint64_t t1)
{
	if (!t0)
		t0 = t1 = pomp_now();
	ev_record(&t->ev, t->index, EV_ENTER, r->id, t0, 0, 0, 0, 0);
	if (type)
		ev_record(&t->ev, t->index, type, r->id, t1, 1, (uint64_t)(uintptr_t)l, 0, 0);
	ev_record(&t->ev, t->index, EV_EXIT, r->id, t1, 0, 0, 0, 0);
}

/* visit counts a call of a lock routine at its call site; type is
 * EV_LOCK_RELEASED for an unset call. */
static void visit_as(POMP_Region *r, unsigned type, void *l)
{
	if (pomp_mode < POMP_MODE_PROFILE)
		return;
	/* Only waiting is timed, and these calls do not wait. */
	pomp_thr *t = pomp_self();
	pomp_phase *p = &pomp_stat_at(t, r->id)->ph[PH_CONSTRUCT];
	p->visits++;
	p->timed++;
	if (t->ev.mask && pomp_g.ev_all) /* not in grains mode */
		trace(t, r, 0, type, l, 0);
}

static void visit(POMP_Region *r) { visit_as(r, 0, NULL); }

/* acquired records an acquisition of lock l that waited from t0 to t1
 * (0 and 0 when it did not wait). */
static void acquired(POMP_Region *r, void *l, uint64_t t0, uint64_t t1)
{
	uint64_t wait = t1 - t0;
	pomp_thr *t = pomp_self();
	if (t->ev.mask && pomp_g.ev_all) /* not in grains mode */
		trace(t, r, t0, EV_LOCK_ACQUIRED, l, t1);
	/* The wait is the lock call's exclusive time, not that of the frame
	 * it is made in. */
	pomp_frame *f = &t->fr[t->nfr - 1];
	if (wait && (f->flags & FL_MEASURED) && f->kind != FR_PARKED)
		f->est += wait;
	pomp_stat *s = pomp_stat_at(t, r->id);
	s->ph[PH_CONSTRUCT].visits++;
	s->ph[PH_CONSTRUCT].timed++;
	s->ph[PH_CONSTRUCT].incl += wait;
	s->ph[PH_CONSTRUCT].excl += wait;
	s->lock_acquired++;
	s->lock_wait += wait;
}

void POMP_Init_lock(POMP_Region *r, void *l) { visit(r); CALLV(omp_init_lock, l); }
/* GCC's libgomp declares the _with_hint routines but does not define
 * them; a hint may be ignored, so the plain routine stands in. */
void POMP_Init_lock_with_hint(POMP_Region *r, void *l, int h)
{
	visit(r);
	if (omp_init_lock_with_hint)
		omp_init_lock_with_hint(l, h);
	else
		CALLV(omp_init_lock, l);
}

void POMP_Destroy_lock(POMP_Region *r, void *l) { visit(r); CALLV(omp_destroy_lock, l); }
void POMP_Unset_lock(POMP_Region *r, void *l) { visit_as(r, EV_LOCK_RELEASED, l); CALLV(omp_unset_lock, l); }
void POMP_Init_nest_lock(POMP_Region *r, void *l) { visit(r); CALLV(omp_init_nest_lock, l); }
void POMP_Init_nest_lock_with_hint(POMP_Region *r, void *l, int h)
{
	visit(r);
	if (omp_init_nest_lock_with_hint)
		omp_init_nest_lock_with_hint(l, h);
	else
		CALLV(omp_init_nest_lock, l);
}

void POMP_Destroy_nest_lock(POMP_Region *r, void *l) { visit(r); CALLV(omp_destroy_nest_lock, l); }
void POMP_Unset_nest_lock(POMP_Region *r, void *l) { visit_as(r, EV_LOCK_RELEASED, l); CALLV(omp_unset_nest_lock, l); }

void POMP_Set_lock(POMP_Region *r, void *l)
{
	if (pomp_mode < POMP_MODE_PROFILE) {
		CALLV(omp_set_lock, l);
		return;
	}
	uint64_t t0 = pomp_now();
	CALLV(omp_set_lock, l);
	acquired(r, l, t0, pomp_now());
}

void POMP_Set_nest_lock(POMP_Region *r, void *l)
{
	if (pomp_mode < POMP_MODE_PROFILE) {
		CALLV(omp_set_nest_lock, l);
		return;
	}
	uint64_t t0 = pomp_now();
	CALLV(omp_set_nest_lock, l);
	acquired(r, l, t0, pomp_now());
}

int POMP_Test_lock(POMP_Region *r, void *l)
{
	int ok = CALL(omp_test_lock, l);
	if (pomp_mode >= POMP_MODE_PROFILE) {
		if (ok) {
			uint64_t now = pomp_now();
			acquired(r, l, now, now);
		} else {
			visit(r);
		}
	}
	return ok;
}

int POMP_Test_nest_lock(POMP_Region *r, void *l)
{
	int n = CALL(omp_test_nest_lock, l);
	if (pomp_mode >= POMP_MODE_PROFILE) {
		if (n) {
			uint64_t now = pomp_now();
			acquired(r, l, now, now);
		} else {
			visit(r);
		}
	}
	return n;
}

/* For Fortran's nest locks (fortran_locks.c), which call the Fortran
 * entries of the lock routines. */
void pomp_lock_visit(POMP_Region *r, unsigned type, void *l) { visit_as(r, type, l); }
void pomp_lock_acquired(POMP_Region *r, void *l, uint64_t t0, uint64_t t1) { acquired(r, l, t0, t1); }
