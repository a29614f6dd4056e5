/*
 * fortran.c — out-of-line copies of pomp.h's inline functions, for the
 * Fortran binding (module pomp_lib, pomprt/include/pomp_lib.f90): Fortran
 * calls C only through bind(C) interfaces, which need a symbol. Each is
 * the inline function itself, so Fortran code costs one call more per
 * event than C: no clock read, no state of its own. The event calls
 * (POMP_For_enter, ...) are in fortran_events.c, generated.
 */
#include "include/pomp.h"

POMP_Task_handle pomp_f_get_current_task(void) { return POMP_Get_current_task(); }
void pomp_f_set_current_task(POMP_Task_handle t) { POMP_Set_current_task(t); }

POMP_Task_handle pomp_f_task_create_begin(POMP_Region *r, POMP_Task_ctx *ctx) { return POMP_Task_create_begin(r, ctx); }
void pomp_f_task_create_end(POMP_Region *r, POMP_Task_ctx ctx) { POMP_Task_create_end(r, ctx); }
void pomp_f_task_begin(POMP_Region *r, POMP_Task_handle id, POMP_Task_ctx ctx) { POMP_Task_begin(r, id, ctx); }
void pomp_f_task_end(POMP_Region *r) { POMP_Task_end(r); }
void pomp_f_section_begin(POMP_Region *r, int section) { POMP_Section_begin(r, section); }
