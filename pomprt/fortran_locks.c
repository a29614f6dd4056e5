/*
 * fortran_locks.c — the nest lock routines of Fortran, measured as C's
 * (locks.c). A Fortran nest lock is not always the C lock: gfortran's
 * integer(omp_nest_lock_kind) holds a pointer to libgomp's
 * omp_nest_lock_t, libomp's is the lock itself. So these call the
 * OpenMP runtime's Fortran entries (omp_set_nest_lock_, ...), which know
 * their runtime's layout, with the Fortran variable; its address is the
 * lock's identity in traces.
 */
#include <stdio.h>
#include <stdlib.h>
#include "rt.h"

/* Weak, so that libpomp links into programs without OpenMP. */
extern void omp_init_nest_lock_(void *) __attribute__((weak));
extern void omp_destroy_nest_lock_(void *) __attribute__((weak));
extern void omp_set_nest_lock_(void *) __attribute__((weak));
extern void omp_unset_nest_lock_(void *) __attribute__((weak));
extern int omp_test_nest_lock_(void *) __attribute__((weak));

/* entry returns the Fortran entry fn, or ends the program when the
 * program has no OpenMP runtime. */
#define entry(fn)                                                                                           \
	(fn ? fn                                                                                            \
	    : (fprintf(stderr, "gopari: %s called, but the program is not linked with an OpenMP runtime\n", #fn), \
	       abort(), fn))

void pomp_f_init_nest_lock(POMP_Region *r, void *l)
{
	pomp_lock_visit(r, 0, NULL);
	entry(omp_init_nest_lock_)(l);
}

void pomp_f_destroy_nest_lock(POMP_Region *r, void *l)
{
	pomp_lock_visit(r, 0, NULL);
	entry(omp_destroy_nest_lock_)(l);
}

void pomp_f_unset_nest_lock(POMP_Region *r, void *l)
{
	pomp_lock_visit(r, EV_LOCK_RELEASED, l);
	entry(omp_unset_nest_lock_)(l);
}

void pomp_f_set_nest_lock(POMP_Region *r, void *l)
{
	if (pomp_mode < POMP_MODE_PROFILE) {
		entry(omp_set_nest_lock_)(l);
		return;
	}
	uint64_t t0 = pomp_now();
	entry(omp_set_nest_lock_)(l);
	pomp_lock_acquired(r, l, t0, pomp_now());
}

int pomp_f_test_nest_lock(POMP_Region *r, void *l)
{
	int n = entry(omp_test_nest_lock_)(l);
	if (pomp_mode >= POMP_MODE_PROFILE) {
		if (n) {
			uint64_t now = pomp_now();
			pomp_lock_acquired(r, l, now, now);
		} else {
			pomp_lock_visit(r, 0, NULL);
		}
	}
	return n;
}
