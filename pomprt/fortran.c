/*
 * fortran.c — out-of-line copies of pomp.h's inline functions, for the
 * Fortran binding (module pomp_lib, pomprt/include/pomp_lib.f90): Fortran
 * calls C only through bind(C) interfaces, which need a symbol. Each is
 * the inline function itself, so Fortran code costs one call more per
 * event than C: no clock read, no state of its own. The event calls
 * (POMP_For_enter, ...) are in fortran_events.c, generated.
 */
#include "include/pomp.h"

/* POMP_Parallel_fork's result through a pointer: flang 19 does not take
 * a bind(C) function's result of two 8-byte integers from rax:rdx as C
 * returns it (gfortran does). */
void pomp_f_parallel_fork(POMP_Region *r, POMP_Task_handle old, POMP_Task_info *team) { *team = POMP_Parallel_fork(r, old); }

POMP_Task_handle pomp_f_get_current_task(void) { return POMP_Get_current_task(); }
void pomp_f_set_current_task(POMP_Task_handle t) { POMP_Set_current_task(t); }

POMP_Task_handle pomp_f_task_create_begin(POMP_Region *r, POMP_Task_ctx *ctx) { return POMP_Task_create_begin(r, ctx); }
void pomp_f_task_create_end(POMP_Region *r, POMP_Task_ctx ctx) { POMP_Task_create_end(r, ctx); }
void pomp_f_task_begin(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx) { POMP_Task_begin(r, id, ctx); }
void pomp_f_task_end(POMP_Region *r) { POMP_Task_end(r); }
void pomp_f_section_begin(POMP_Region *r, int section) { POMP_Section_begin(r, section); }

/* Loop chunks (gopari instrument --chunks): pomp_lib's type pomp_chunk
 * is this structure, field for field. */
_Static_assert(sizeof(POMP_Chunk) == 9 * sizeof(long long) + 2 * sizeof(void *) + 4 * sizeof(int),
               "pomp_lib.f90's pomp_chunk must match POMP_Chunk");
void pomp_f_chunk_init(POMP_Chunk *c, POMP_Region *r, long long step, long long size, long long lbv, long long vstep)
{
	POMP_Chunk_init(c, r, step, size, lbv, vstep);
}
void pomp_f_chunk_init_count(POMP_Chunk *c, POMP_Region *r, long long step, long long lbv, long long vstep)
{
	POMP_Chunk_init_count(c, r, step, lbv, vstep);
}
void pomp_f_chunk_iteration(POMP_Chunk *c, long long x, long long v) { POMP_Chunk_iteration(c, x, v); }
void pomp_f_chunk_close(POMP_Chunk *c) { POMP_Chunk_close(c); }
void pomp_f_chunk_close_count(POMP_Chunk *c, long long n, long long last, long long sum) { POMP_Chunk_close_count(c, n, last, sum); }

/* Taskloops: pomp_lib's type pomp_taskloop_info is POMP_Taskloop_info,
 * field for field; instrumented Fortran calls the iteration's end at the
 * bottom of each iteration, as C's cleanup handler does. */
_Static_assert(sizeof(POMP_Taskloop_info) == 12 * sizeof(long long) + 2 * sizeof(void *) + 2 * sizeof(int),
               "pomp_lib.f90's pomp_taskloop_info must match POMP_Taskloop_info");
void pomp_f_taskloop_enter(POMP_Region *r, POMP_Task_handle encountering, POMP_Taskloop_info *tl)
{
	POMP_Taskloop_enter(r, encountering, tl);
}
void pomp_f_taskloop_loop(POMP_Taskloop_info *tl, int level, long long lb, long long ub, long long step, int rel)
{
	POMP_Taskloop_loop(tl, level, lb, ub, step, rel);
}
void pomp_f_taskloop_schedule(POMP_Taskloop_info *tl, int kind, long long value) { POMP_Taskloop_schedule(tl, kind, value); }
void pomp_f_taskloop_iteration(POMP_Taskloop_info *tl, long long v) { (void)POMP_Taskloop_iteration(tl, v); }
void pomp_f_taskloop_iteration_end(POMP_Taskloop_info *tl) { POMP_Taskloop_iteration_end(&tl); }
