/*
 * rt.h — internal data of libpomp, shared by its C part (rt.c, locks.c)
 * and its Go part, which reads these structures once, at exit.
 *
 * Every event is handled in C on thread-local memory. Statistics live per
 * location — a place in the team tree such as 0.1.1 (thread 1 of the team
 * created by thread 1 of the first team), not an OS thread — and per
 * region. Their size depends on the number of regions and locations,
 * never on the number of tasks or events.
 */
#ifndef POMP_RT_H
#define POMP_RT_H

#include <stdint.h>
#include <pthread.h>
#include "include/pomp.h"

/* Phases of a region whose time is measured separately. */
enum {
	PH_CONSTRUCT = 0, /* X_enter .. X_exit, or the whole task/parallel region */
	PH_BODY,          /* X_begin .. X_end: the body executed */
	PH_BARRIER,       /* the implicit barrier of a worksharing construct */
	PH_WAIT,          /* taskgroup: end of body .. exit */
	PH_COUNT
};

typedef struct pomp_phase {
	uint64_t visits;
	uint64_t incl; /* ticks, children included */
	uint64_t excl; /* ticks, children and tasks run meanwhile excluded */
} pomp_phase;

#define POMP_EDGES 4

/* A creation-tree edge: child tasks of this region created from within a
 * region (task, implicit task or root). */
typedef struct pomp_edge {
	uint32_t parent; /* region id; 0 is the initial task */
	uint32_t pad;
	uint64_t count;
} pomp_edge;

/* Statistics of one region at one location. */
typedef struct pomp_stat {
	pomp_phase ph[PH_COUNT];
	/* Tasks. */
	uint64_t created;      /* instances created here */
	uint64_t executed;     /* instances begun here */
	uint64_t undeferred;   /* executed at once by their creator (if(0), final, included, throttled) */
	uint64_t suspensions;  /* times a task of this region was suspended for another */
	uint64_t create_timed; /* creations whose duration was measured */
	uint64_t create_sum, create_min, create_max;
	uint64_t exec_sum, exec_min, exec_max; /* execution time, suspended time excluded */
	uint32_t max_depth;                    /* deepest creation depth of an instance */
	uint32_t nedges;
	pomp_edge edges[POMP_EDGES];
	uint64_t other_parents; /* creations from parents beyond POMP_EDGES */
	/* Locks: acquisitions and the time spent waiting for them. */
	uint64_t lock_acquired, lock_wait;
} pomp_stat;

/* A location: one place in the team tree. */
typedef struct pomp_loc {
	uint32_t index;
	uint32_t parent; /* index of the encountering location; itself for a root */
	uint32_t num;    /* thread number in its team, or the OS thread index for a root */
	uint32_t level;  /* nesting level: 0 for an initial thread */
	uint32_t os_thread;
	uint32_t nstat;      /* size of stat, in regions */
	pomp_stat *stat;     /* indexed by region id */
	uint64_t implicit_tasks;
} pomp_loc;

/* A frame of a thread's stack: an open region phase or a task. */
typedef struct pomp_frame {
	uint32_t region;
	uint8_t kind;  /* FR_* */
	uint8_t timed; /* the frame holds start times */
	uint16_t phase;
	uint64_t start;
	uint64_t child; /* ticks of nested frames and tasks */
	/* Task and implicit-task frames. */
	uint64_t resume; /* when it last became the current task */
	uint64_t exec;   /* execution ticks before the last suspension */
	uint32_t susp;
	uint32_t depth;
	int32_t prev_task; /* the enclosing task frame, -1 if none */
	uint32_t saved_loc;
} pomp_frame;

enum { FR_PHASE = 0, FR_CREATE, FR_TASK, FR_IMPLICIT, FR_FORK };

/* One OS thread. */
typedef struct pomp_thr {
	uint32_t index;    /* OS thread index, the high half of its task IDs */
	uint32_t loc;      /* current location index */
	int has_loc;
	pomp_stat *stat;   /* the current location's statistics, cached */
	uint32_t nstat;
	uint32_t creating; /* region of a task being created here and not yet begun, or 0 */
	pomp_frame *fr;
	int nfr, capfr;
	int task;          /* index of the innermost task or implicit-task frame, -1 */
	uint64_t unmatched;
	uint32_t cache_parent, cache_num, cache_loc; /* the last child_loc lookup */
	int has_cache;
	uint64_t *ids;     /* POMP_MODE_RECORD: every task ID begun here */
	size_t nids, capids;
	struct pomp_thr *next;
} pomp_thr;

/* The global state, read by Go at exit. */
typedef struct pomp_rt {
	pthread_mutex_t mu;
	POMP_Unit *units;
	uint32_t nregions; /* region ids run from 1 to nregions */
	POMP_Region **regions;
	uint32_t capregions;
	pomp_loc **locs;
	uint32_t nlocs, caplocs;
	pomp_thr *threads;
	uint32_t nthreads;
	uint32_t next_index; /* next OS thread index for task IDs */
	uint64_t tick0, ns0; /* timer at initialization */
	int use_tsc;
	int finalized;
	int mode; /* the run's mode, from GOPARI_MODE; pomp_mode may differ after POMP_Off or a signal */
} pomp_rt;

extern pomp_rt pomp_g;

uint64_t pomp_now(void);
uint64_t pomp_ns(void);
void pomp_init(void);
void pomp_finalize_now(void);
pomp_thr *pomp_self(void);
pomp_stat *pomp_stat_at(pomp_thr *t, uint32_t region);

int pomp_signal_fd(void);
void pomp_signal_exit(int sig);

/* Implemented in Go (main.go). */
extern void pompGoFinalize(char *exit);

#endif
