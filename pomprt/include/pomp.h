/*
 * pomp.h — the POMP interface between code instrumented by gopari and a
 * measurement runtime (gopari's is libpomp.a).
 *
 * gopari instrument rewrites every OpenMP directive of a C or C++ file
 * into calls of the functions below. This header is the whole contract:
 * the calls a construct becomes, their arguments, and the order in which
 * they happen. It includes no system header, so that a file which defines
 * _GNU_SOURCE or _POSIX_C_SOURCE before its own #include lines keeps
 * working.
 *
 * TASK IDENTITY (Lorenz et al., "How to reconcile event-based performance
 * analysis with tasking in OpenMP", IWOMP 2010, Figures 3-7, Table 1)
 *
 *   Every thread keeps the handle of the task it is executing in
 *   thread-local storage. A handle is a 64-bit task ID,
 *   (thread index << 32) | per-thread counter, so new IDs need no lock.
 *   The initial task of the program is POMP_ROOT_TASK. The instrumented
 *   code saves the current handle in a local variable, pomp_old_task,
 *   before every task scheduling point and restores it after:
 *
 *     POMP_Task_handle pomp_old_task = POMP_Get_current_task();
 *     ... scheduling point ...
 *     POMP_Set_current_task(pomp_old_task);
 *
 *   Each implicit task of a parallel region and each explicit task gets a
 *   fresh ID when it begins. A new explicit task receives its creator's
 *   handle through firstprivate(pomp_old_task), and an opaque creation
 *   context through firstprivate(pomp_task_info); the runtime records the
 *   parent-child relation from them.
 *
 * EVENT ORDER PER CONSTRUCT. r is the construct's region; BODY is the
 * user's structured block. "save" and "restore" are the two lines above.
 *
 *   parallel       save; team = Parallel_fork(r, old);
 *                  #pragma omp parallel ... firstprivate(pomp_old_task, pomp_team)
 *                  { Parallel_begin(r, old, team); BODY Parallel_end(r); }
 *                  Parallel_join(r, old); restore
 *                  (the implicit barrier at the end of the region lies
 *                  between Parallel_end and Parallel_join; gopari adds no
 *                  barrier of its own)
 *   for, sections, single, scope without nowait
 *                  X_enter(r); #pragma omp X ... nowait LOOP-or-BLOCK X_exit(r);
 *                  save; Implicit_barrier_enter(r); #pragma omp barrier
 *                  restore; Implicit_barrier_exit(r)
 *                  When the construct contains cancel or cancellation
 *                  point, or single has copyprivate, the implicit barrier
 *                  is kept: save; X_enter(r); #pragma omp X ...;
 *                  restore; X_exit(r) (region flag POMP_FLAG_IMPLICIT_BARRIER).
 *                  Inside a combined "parallel X" the construct gets
 *                  nowait and the parallel region's own barrier follows.
 *   section        Section_begin(r); SEQUENCE Section_end(r)  (r: the sections region)
 *   single         only the executing thread: Single_begin(r); BODY Single_end(r)
 *   master, masked Master_begin(r); BODY Master_end(r)   (executing thread only)
 *   critical       Critical_enter(r); { Critical_begin(r); BODY Critical_end(r); } Critical_exit(r)
 *   atomic         Atomic_enter(r); STATEMENT Atomic_exit(r)
 *   flush          Flush_enter(r); #pragma omp flush Flush_exit(r)
 *   barrier        save; Barrier_enter(r); #pragma omp barrier restore; Barrier_exit(r)
 *   taskwait       save; Taskwait_begin(r); #pragma omp taskwait restore; Taskwait_end(r)
 *   taskyield      save; Taskyield_begin(r); #pragma omp taskyield restore; Taskyield_end(r)
 *   task           info = Task_create_begin(r); save;
 *                  #pragma omp task ... firstprivate(pomp_old_task, pomp_task_info)
 *                  { Task_begin(r, old, info); BODY Task_end(r); }
 *                  restore; Task_create_end(r)
 *                  (an undeferred or included task runs between
 *                  Task_create_begin and Task_create_end on the same thread)
 *   taskgroup      save; Taskgroup_enter(r); { Taskgroup_begin(r); BODY Taskgroup_end(r); }
 *                  restore; Taskgroup_exit(r)   (end..exit is the wait for the tasks)
 *   taskloop       save; Taskloop_enter(r); #pragma omp taskloop LOOP restore; Taskloop_exit(r)
 *   ordered        Ordered_enter(r); { Ordered_begin(r); BODY Ordered_end(r); } Ordered_exit(r)
 *                  standalone (depend/doacross): Ordered_enter(r); #pragma Ordered_exit(r)
 *   simd, loop     Simd_enter(r) / Loop_enter(r); LOOP; Simd_exit(r) / Loop_exit(r)
 *                  (loop: save before and restore after, it may end in a barrier)
 *   cancel, cancellation point
 *                  Cancel_enter(r); #pragma Cancel_exit(r) -- when cancellation
 *                  takes effect, Cancel_exit is skipped and the end events
 *                  of the cancelled constructs are delivered by cleanup
 *                  handlers (see POMP_FLAG_CLEANUP).
 *   #pragma pomp inst begin(name) / end(name) / altend(name)
 *                  User_region_begin(r) / User_region_end(r)
 *   #pragma pomp inst init / on / off
 *                  POMP_Init() / POMP_On() / POMP_Off()
 *   lock routines  omp_set_lock(l) -> POMP_Set_lock(r, l), and likewise
 *                  for every omp_*_lock and omp_*_nest_lock routine; r is
 *                  the call site.
 *
 *   Combined constructs are split: "parallel for" becomes a parallel
 *   region whose body is a "for" construct, each instrumented as above,
 *   with the clauses distributed as OpenMP 5.2 section 17.2 prescribes.
 *   target, teams and distribute constructs, and everything inside them,
 *   and everything inside simd, loop and order(concurrent) regions, are
 *   left untouched.
 *
 * REGISTRATION. Every instrumented file holds a static table of its
 * regions and registers it from a constructor with POMP_Register_unit, so
 * linking needs no extra step. Regions carry file and line numbers as the
 * user sees them.
 */
#ifndef POMP_H
#define POMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* An enum, not a macro: generated tables use it in preprocessed files. */
enum { POMP_ABI_VERSION = 1 };

/* A task handle: (thread index << 32) | per-thread counter. */
typedef unsigned long long POMP_Task_handle;
/* An opaque creation context handed from a creating task to its child. */
typedef unsigned long long POMP_Task_info;

#define POMP_ROOT_TASK ((POMP_Task_handle)0)

/* Region kinds. */
enum {
	POMP_PARALLEL = 1,
	POMP_FOR,
	POMP_SECTIONS,
	POMP_SINGLE,
	POMP_SCOPE,
	POMP_MASTER, /* master and masked */
	POMP_CRITICAL,
	POMP_ATOMIC,
	POMP_FLUSH,
	POMP_BARRIER,
	POMP_TASKWAIT,
	POMP_TASKYIELD,
	POMP_TASK,
	POMP_TASKGROUP,
	POMP_TASKLOOP,
	POMP_ORDERED,
	POMP_SIMD,
	POMP_LOOP,
	POMP_CANCEL,
	POMP_CANCELLATION_POINT,
	POMP_USER,
	POMP_LOCK,
	POMP_KIND_COUNT
};

/* Region flags. */
enum {
	POMP_FLAG_NOWAIT = 1 << 0,           /* the user wrote nowait */
	POMP_FLAG_BARRIER = 1 << 1,          /* gopari turned the implicit barrier into an explicit one */
	POMP_FLAG_IMPLICIT_BARRIER = 1 << 2, /* the implicit barrier is kept, inside X_enter..X_exit */
	POMP_FLAG_COMBINED = 1 << 3,         /* a leaf of a combined construct */
	POMP_FLAG_UNTIED = 1 << 4,           /* an untied task kept untied */
	POMP_FLAG_TIED = 1 << 5,             /* gopari removed untied */
	POMP_FLAG_CLEANUP = 1 << 6,          /* end events come from cleanup handlers (cancellation) */
	POMP_FLAG_IF = 1 << 7,               /* the construct has an if clause */
	POMP_FLAG_FINAL = 1 << 8,            /* a task with a final clause */
	POMP_FLAG_MERGEABLE = 1 << 9,        /* a task with a mergeable clause */
	POMP_FLAG_DEPEND = 1 << 10           /* depend or doacross clauses */
};

/* One instrumented construct. The runtime sets id when the unit is
 * registered; everything else is written by gopari. */
typedef struct POMP_Region {
	unsigned int id;
	unsigned short kind;  /* POMP_PARALLEL ... */
	unsigned short flags; /* POMP_FLAG_* */
	int begin_line;       /* line of the directive */
	int end_line;         /* line of the last token of its block */
	const char *file;     /* source file as the user named it */
	const char *name;     /* the directive as written, e.g. "parallel for" */
	const char *sub_name; /* critical name, user region name or lock routine; 0 if none */
	const char *clauses;  /* the clauses, blanks normalized; "" if none */
} POMP_Region;

/* The regions of one instrumented file. */
typedef struct POMP_Unit {
	unsigned int abi_version; /* POMP_ABI_VERSION */
	unsigned int n_regions;
	const char *file;
	POMP_Region *regions;
	struct POMP_Unit *next; /* for the runtime */
} POMP_Unit;

void POMP_Register_unit(POMP_Unit *unit);

/* ---------------------------------------------------------------------
 * Runtime state read by the inline functions. Not for direct use.
 */
#if defined(__GNUC__) || defined(__clang__)
#define POMP_INLINE static __inline__ __attribute__((__always_inline__, __unused__))
#define POMP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define POMP_TLS __thread __attribute__((__tls_model__("initial-exec")))
#else
#define POMP_INLINE static inline
#define POMP_UNLIKELY(x) (x)
#define POMP_TLS _Thread_local
#endif

enum {
	POMP_MODE_OFF = 0,     /* no events */
	POMP_MODE_IDS = 1,     /* task identities only (the seed's overhead experiment) */
	POMP_MODE_PROFILE = 2, /* identities and profile; >= 2 calls the runtime */
	POMP_MODE_RECORD = 3   /* identities, each new ID reported to the runtime (tests) */
};

typedef struct POMP_Thread {
	POMP_Task_handle current; /* the task this thread executes */
	unsigned long long next;  /* the next task ID to hand out; 0 before registration */
} POMP_Thread;

extern POMP_TLS POMP_Thread pomp_thread;
extern int pomp_mode;

/* Registers the calling thread on first sight, or when its counter wraps,
 * and returns its first task ID. */
POMP_Task_handle pomp_rt_thread_new(void);

/* Out-of-line runtime entries behind the inline functions. */
POMP_Task_info pomp_rt_task_create_begin(POMP_Region *r);
void pomp_rt_task_create_end(POMP_Region *r);
void pomp_rt_task_begin(POMP_Region *r, POMP_Task_handle parent, POMP_Task_info info, POMP_Task_handle id);
void pomp_rt_task_end(POMP_Region *r);
void pomp_rt_enter(POMP_Region *r, int event);
void pomp_rt_exit(POMP_Region *r, int event);

/* Event codes for pomp_rt_enter and pomp_rt_exit. */
enum {
	POMP_EV_CONSTRUCT = 0, /* X_enter / X_exit: the whole construct */
	POMP_EV_BODY,          /* X_begin / X_end: the body (single, master, critical, section, ...) */
	POMP_EV_BARRIER,       /* Implicit_barrier_enter / exit */
	POMP_EV_WAIT           /* Taskgroup_end .. Taskgroup_exit */
};

/* ---------------------------------------------------------------------
 * Task identity.
 */
POMP_INLINE POMP_Task_handle POMP_Get_current_task(void) { return pomp_thread.current; }
POMP_INLINE void POMP_Set_current_task(POMP_Task_handle task) { pomp_thread.current = task; }

/* Returns a fresh task ID of the calling thread, without synchronization. */
POMP_INLINE POMP_Task_handle POMP_New_task_id(void)
{
	POMP_Task_handle id = pomp_thread.next;
	if (POMP_UNLIKELY((unsigned int)id == 0))
		id = pomp_rt_thread_new();
	pomp_thread.next = id + 1;
	return id;
}

/* ---------------------------------------------------------------------
 * Parallel regions. Out of line: they cost microseconds anyway.
 */
/* Parallel_fork returns an opaque team context that every implicit task
 * receives through firstprivate(pomp_team): it names the encountering
 * thread's place in the team tree, so nested teams get exact paths. */
POMP_Task_info POMP_Parallel_fork(POMP_Region *r, POMP_Task_handle encountering);
void POMP_Parallel_begin(POMP_Region *r, POMP_Task_handle encountering, POMP_Task_info team);
void POMP_Parallel_end(POMP_Region *r);
void POMP_Parallel_join(POMP_Region *r, POMP_Task_handle encountering);

/* ---------------------------------------------------------------------
 * Tasks.
 */
POMP_INLINE POMP_Task_info POMP_Task_create_begin(POMP_Region *r)
{
	return pomp_mode >= POMP_MODE_PROFILE ? pomp_rt_task_create_begin(r) : 0;
}

POMP_INLINE void POMP_Task_create_end(POMP_Region *r)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_rt_task_create_end(r);
}

POMP_INLINE void POMP_Task_begin(POMP_Region *r, POMP_Task_handle parent, POMP_Task_info info)
{
	int mode = pomp_mode;
	POMP_Task_handle id;
	if (mode == POMP_MODE_OFF)
		return;
	id = POMP_New_task_id();
	pomp_thread.current = id;
	if (mode >= POMP_MODE_PROFILE)
		pomp_rt_task_begin(r, parent, info, id);
}

POMP_INLINE void POMP_Task_end(POMP_Region *r)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_rt_task_end(r);
}

/* ---------------------------------------------------------------------
 * Every other construct: an inline mode check in front of the runtime.
 */
#define POMP_EVENT_(name, fn, ev)                  \
	POMP_INLINE void name(POMP_Region *r)          \
	{                                              \
		if (pomp_mode >= POMP_MODE_PROFILE)    \
			fn(r, ev);                     \
	}
#define POMP_PAIR_(a, b, ev) POMP_EVENT_(a, pomp_rt_enter, ev) POMP_EVENT_(b, pomp_rt_exit, ev)

POMP_PAIR_(POMP_For_enter, POMP_For_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Sections_enter, POMP_Sections_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Section_begin, POMP_Section_end, POMP_EV_BODY)
POMP_PAIR_(POMP_Single_enter, POMP_Single_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Single_begin, POMP_Single_end, POMP_EV_BODY)
POMP_PAIR_(POMP_Scope_enter, POMP_Scope_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Master_begin, POMP_Master_end, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Critical_enter, POMP_Critical_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Critical_begin, POMP_Critical_end, POMP_EV_BODY)
POMP_PAIR_(POMP_Atomic_enter, POMP_Atomic_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Flush_enter, POMP_Flush_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Barrier_enter, POMP_Barrier_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Implicit_barrier_enter, POMP_Implicit_barrier_exit, POMP_EV_BARRIER)
POMP_PAIR_(POMP_Taskwait_begin, POMP_Taskwait_end, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Taskyield_begin, POMP_Taskyield_end, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Taskgroup_enter, POMP_Taskgroup_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Taskgroup_begin, POMP_Taskgroup_end, POMP_EV_BODY)
POMP_PAIR_(POMP_Taskloop_enter, POMP_Taskloop_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Ordered_enter, POMP_Ordered_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Ordered_begin, POMP_Ordered_end, POMP_EV_BODY)
POMP_PAIR_(POMP_Simd_enter, POMP_Simd_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Loop_enter, POMP_Loop_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Cancel_enter, POMP_Cancel_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_Cancellation_point_enter, POMP_Cancellation_point_exit, POMP_EV_CONSTRUCT)
POMP_PAIR_(POMP_User_region_begin, POMP_User_region_end, POMP_EV_CONSTRUCT)

/* Cleanup handlers: gopari declares a variable
 *   POMP_Region *pomp_end_N __attribute__((cleanup(POMP_X_end_cleanup))) = r;
 * in a body that contains cancel or cancellation point, so that the end
 * event is delivered when cancellation leaves the body. */
void POMP_Parallel_end_cleanup(POMP_Region **r);
void POMP_Body_end_cleanup(POMP_Region **r);
void POMP_Task_end_cleanup(POMP_Region **r);

/* ---------------------------------------------------------------------
 * User control: #pragma pomp inst init / on / off.
 */
void POMP_Init(void);
void POMP_On(void);
void POMP_Off(void);

/* ---------------------------------------------------------------------
 * The OpenMP lock routines, wrapped. lock is an omp_lock_t * or an
 * omp_nest_lock_t *; hint is an omp_sync_hint_t. Each calls the OpenMP
 * routine and records the wait time of acquisitions.
 */
void POMP_Init_lock(POMP_Region *r, void *lock);
void POMP_Init_lock_with_hint(POMP_Region *r, void *lock, int hint);
void POMP_Destroy_lock(POMP_Region *r, void *lock);
void POMP_Set_lock(POMP_Region *r, void *lock);
void POMP_Unset_lock(POMP_Region *r, void *lock);
int POMP_Test_lock(POMP_Region *r, void *lock);
void POMP_Init_nest_lock(POMP_Region *r, void *lock);
void POMP_Init_nest_lock_with_hint(POMP_Region *r, void *lock, int hint);
void POMP_Destroy_nest_lock(POMP_Region *r, void *lock);
void POMP_Set_nest_lock(POMP_Region *r, void *lock);
void POMP_Unset_nest_lock(POMP_Region *r, void *lock);
int POMP_Test_nest_lock(POMP_Region *r, void *lock);

#ifdef __cplusplus
}
#endif

#endif /* POMP_H */
