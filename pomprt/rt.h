/*
 * rt.h — internal data of libpomp, shared by its C part (core.h lists its
 * files) and its Go part, which reads these structures once, at exit.
 *
 * Every event is handled in C on thread-local memory. Statistics live per
 * location — a place in the team tree such as 0.1.1 (thread 1 of the team
 * created by thread 1 of the first team), not an OS thread — and per
 * region. Their size depends on the number of regions and locations,
 * never on the number of tasks or events.
 *
 * TIME. Each thread keeps a stack of frames: the tasks it runs (its
 * initial task at the bottom, implicit tasks, explicit and taskloop
 * tasks) and the region phases open in them. A frame's exclusive time is
 * the time it was the top of its thread's stack; a task's execution time
 * is the sum of the exclusive times of its own frames, so the time of a
 * task suspended for another is not counted. A region's inclusive time
 * at a location counts the time during which at least one of its frames
 * was open there (the outermost one), as a call-path profile does, so
 * recursion is not counted twice. Call paths (callpath.c, with gopari cc
 * --functions) keep time of their own beside the frames', which they
 * never change: the region profile is the same with them or without.
 *
 * SAMPLING. Reading the clock costs about 10 ns, as much as a whole tiny
 * task. Counts are always exact; times are measured for every implicit
 * task and for every frame inside a measured task, and for a sample of
 * the instances of short task regions: all instances until a location has
 * created SAMPLE_EXACT of a region, then one in SAMPLE_EVERY, unless the
 * measured instances of the region ran LONG_NS or more on average, after
 * which all are measured (a task creation sees that at its location's
 * next sampled instance: at most SAMPLE_EVERY instances later). A task that is not measured still reads the
 * clock when it begins and ends on top of a measured frame, so that the
 * frame below stays exact; unless its region is short (RF_SHORT: its
 * measured instances took less than SHORT_NS from begin to end, but for
 * 1%), in which case the frame below subtracts the region's mean instead
 * (its est), and the tiny task costs no clock read. Tasks in a closing
 * barrier always read the clock: the barrier wait is exact. The
 * outermost frame of a region phase at a location always reads the
 * clock, so that inclusive times stay exact. A stream (trace mode)
 * reads the clock for every record it keeps: an untimed task of a short
 * region then reads it on a timed frame too, instead of its mean. The
 * profile samples as in profile mode.
 *
 * A measured instance is either certain (every instance of its kind is
 * measured: the first SAMPLE_EXACT, untied tasks, RF_LONG regions, no
 * sampling) or a sample (FL_POOL), which stands for the SAMPLE_EVERY
 * instances it was picked from. Statistics keep the samples' share
 * apart (timed_p, incl_p, excl_p and the _p distributions), so that a
 * reader scales only the samples to the instances left unmeasured
 * (profile.go): the long instances a run measures first, or all of while
 * RF_LONG holds, are counted once, not as the mean of every instance.
 */
#ifndef POMP_RT_H
#define POMP_RT_H

#include <stdint.h>
#include <pthread.h>
#include "include/pomp.h"
#include "events.h"

/* Phases of a region whose time is measured separately. */
enum {
	PH_CONSTRUCT = 0, /* X_enter .. X_exit, a task's execution, or a parallel region's fork .. join */
	PH_BODY,          /* X_begin .. X_end: the body executed; an implicit task */
	PH_BARRIER,       /* the implicit barrier of a worksharing construct or of a parallel region */
	PH_WAIT,          /* taskgroup: end of body .. exit */
	PH_COUNT
};

typedef struct pomp_phase {
	uint64_t visits;
	uint64_t timed; /* visits whose exclusive time was measured */
	uint64_t incl;  /* ticks during which a visit was open here (outermost visits); a task's: its execution */
	uint64_t excl;  /* ticks of the timed visits, nested frames and other tasks excluded */
	/* The timed visits that stand for the untimed ones (FL_POOL), and
	 * their share of incl and excl: see SAMPLING. */
	uint64_t timed_p, incl_p, excl_p;
} pomp_phase;

/* A creation-tree edge: child tasks of this region created from within a
 * task (or implicit or initial task) of region parent. */
typedef struct pomp_edge {
	uint32_t parent; /* region id; 0 is an initial task */
	uint32_t pad;
	uint64_t count;
} pomp_edge;

/* Statistics of one region at one location. */
typedef struct pomp_stat {
	pomp_phase ph[PH_COUNT];
	uint32_t active[PH_COUNT]; /* frames of this region open here, by phase */
	uint32_t max_depth;        /* deepest creation depth of an instance created here */
	uint32_t pad0;
	/* Tasks and taskloop tasks. */
	uint64_t created;     /* instances created here */
	uint64_t next_timed;  /* tasks: no instance before this one is timed by sampling (SAMPLE_EVERY), once past SAMPLE_EXACT */
	uint64_t executed;    /* instances begun here */
	uint64_t undeferred;  /* executed at once by their creator (if(0), final, included, throttled) */
	uint64_t suspensions; /* times a task of this region was suspended for another, or moved */
	uint64_t create_timed, create_sum, create_min, create_max;
	uint64_t exec_timed, exec_sum, exec_min, exec_max; /* measured instances, suspended time excluded */
	uint64_t create_timed_p, create_sum_p, exec_timed_p, exec_sum_p; /* those of them that were samples (FL_POOL) */
	uint64_t iterations;                               /* taskloop: iterations of its tasks run here */
	uint64_t span_sum, span_n, span_long;              /* measured instances: begin to end here */
	pomp_edge *edges;                                  /* every parent region, exactly */
	uint32_t nedges, capedges;
	uint32_t last_edge; /* index of the edge used last */
	uint32_t pad;
	/* Locks: acquisitions and the time spent waiting for them. */
	uint64_t lock_acquired, lock_wait;
	/* MPI calls (libpomp_mpi.a): messages and bytes sent. */
	uint64_t mpi_messages, mpi_bytes;
} pomp_stat;

/* A location: one place in the team tree. */
typedef struct pomp_loc {
	uint32_t index;
	uint32_t parent; /* index of the encountering location; itself for a root */
	uint32_t num;    /* thread number in its team, or the OS thread index for a root */
	uint32_t level;  /* nesting level: 0 for an initial thread */
	uint32_t os_thread;
	uint32_t nstat;  /* size of stat, in regions */
	pomp_stat *stat; /* indexed by region id */
	uint64_t implicit_tasks;
	/* Teams forked here: their members' locations by thread number. */
	uint32_t *children;
	uint32_t nchildren;
	/* The closing barrier of the team instance this location last took
	 * part in, written by its member, read by the master at join. */
	uint64_t close_seq;   /* which team instance (the forking location's fork count) */
	uint64_t close_end;   /* when the member ended its body */
	uint64_t close_tasks; /* ticks of tasks it ran after that */
	uint64_t close_pend_start;          /* start of a C taskloop task it runs there, not yet ended */
	uint64_t close_pend_end;            /* its end, when its last iteration ended */
	const struct pomp_tlinst *close_pend_tl;
	uint64_t close_pend_seq;
	/* The member's time in that barrier (from the end of its body to
	 * the join) and its wait there (that time less the tasks it ran), as
	 * the master computed them at join: written there, and added to this
	 * location's statistics of close_region by settle_close (the
	 * member's next Parallel_begin here, or the profile's collection),
	 * so that the master never writes a member's statistics (a cache
	 * line the member owns). */
	uint64_t close_busy;
	uint64_t close_wait;
	uint32_t close_region; /* the team's parallel region */
	uint32_t close_settle; /* 1 while close_wait waits to be added */
	/* A root location (an initial thread): its initial task's own time,
	 * outside every region, as it stood when the run ended
	 * (pomp_rt_close). */
	uint64_t initial_own;
	uint64_t forks;    /* teams forked here so far */
	uint64_t join_seq; /* the last team forked here that joined, and when */
	uint64_t join_ts;
	/* Call paths (callpath.c): the visits and exclusive ticks of each
	 * path run here, by node ID, grown by the thread at this location
	 * under pomp_g.mu; and the path of the last team forked here, which
	 * its implicit tasks hang below. */
	struct pomp_cpcount *cp;
	uint32_t ncp;       /* counters opened: a mapping's (cp_mapped) are opened COUNTS_STEP at a time */
	uint32_t cp_fork;
	uint8_t cp_mapped;  /* cp is counts_map's mapping for every node, not a heap array */
} pomp_loc;

typedef struct pomp_cpcount {
	uint64_t visits, excl;
} pomp_cpcount;

/* A frame of a thread's stack. */
typedef struct pomp_frame {
	uint32_t region;
	uint8_t kind;   /* FR_* */
	uint8_t phase;  /* PH_* */
	uint16_t flags; /* FL_* */
	uint64_t start; /* when it opened (FL_TS) */
	uint64_t last;  /* when it last became the top of the stack (FL_MEASURED) */
	uint64_t excl;  /* ticks as the top of the stack, before last */
	uint64_t est;   /* ticks of short task instances that ran on it unmeasured, estimated */
	/* Task frames (FR_TASK, FR_IMPLICIT, FR_ROOT, FR_TASKLOOP, FR_PARKED). */
	uint64_t id;
	uint32_t susp;
	int32_t prev_task; /* the enclosing task frame, -1 for the root */
	uint64_t exec;     /* ticks of its closed phase frames */
	uint32_t depth;
	uint32_t saved_loc;
	union {
		struct pomp_parked *parked; /* FR_PARKED */
		uint64_t tl_end;            /* FR_TASKLOOP in C, FL_ENDED: when its last iteration ended */
	};
	uint64_t aux;               /* FR_TASKLOOP in C: its iterations (predicted, or counted); FR_FORK: team instance */
	const struct pomp_tlinst *tl; /* FR_TASKLOOP: its taskloop, which bounds its end in C */
	uint64_t tl_seq;
	uint64_t team_seq; /* FR_TASKLOOP run in a closing barrier: the team (saved_loc is the member) */
	uint64_t cid;      /* task frames: the task being created (for CREATE_END) */
	int64_t tl_first;  /* FR_TASKLOOP: the logical number of its first iteration, or POMP_ITERATION_UNKNOWN */
} pomp_frame;

_Static_assert(sizeof(pomp_frame) == 128, "pomp_frame is 128 bytes");

enum {
	FR_PHASE = 0, /* a region phase */
	FR_FORK,      /* a parallel region on its encountering thread, fork .. join */
	FR_ROOT,      /* a thread's initial task */
	FR_IMPLICIT,  /* an implicit task */
	FR_TASK,      /* an explicit task */
	FR_TASKLOOP,  /* a task generated by a taskloop */
	FR_PARKED     /* an untied task at a scheduling point, kept in a pomp_parked */
};

#define FR_IS_TASK(k) ((k) >= FR_ROOT)

enum {
	FL_TS = 1 << 0,       /* read the clock when it opened and will when it closes */
	FL_MEASURED = 1 << 1, /* its own time is recorded */
	FL_OUTER = 1 << 2,    /* the outermost open frame of its region here */
	FL_CLOSING = 1 << 3,  /* implicit task: body ended, in the closing barrier */
	FL_UNTIED = 1 << 4,   /* task: untied, may move to another thread */
	FL_CXX = 1 << 5,      /* taskloop task: its end is reported (C++) */
	FL_ENDED = 1 << 6,    /* C taskloop task: its last iteration ended, at tl_end */
	FL_COUNTING = 1 << 7, /* C taskloop task: its iterations are counted, its end seen at the next event */
	FL_POOL = 1 << 8,     /* measured as one sample of many instances (SAMPLING), or in such a task */
};

/* An untied task at a scheduling point, while it may move: its frames,
 * taken off its thread's stack. Guarded by pomp_g.park_mu. */
typedef struct pomp_parked {
	uint64_t id;
	struct pomp_thr *owner; /* the thread whose stack holds its placeholder, or NULL once it left */
	uint64_t park_ts;
	uint32_t nested; /* tasks begun on top of it on its thread while parked */
	int nfr, capfr;
	pomp_frame *fr; /* fr[0] is the task frame */
	struct pomp_cpparked *cp; /* its call paths' part (callpath.c), or NULL */
	struct pomp_parked *next;
} pomp_parked;

/* A taskloop encountered on this thread: the bound of its tasks' ends in C. */
typedef struct pomp_tlinst {
	uint64_t seq;
	uint64_t exit_ts; /* 0 until Taskloop_exit */
	uint64_t cp_path; /* call paths: the path that encountered it, its tasks' base */
} pomp_tlinst;

#define POMP_TLINST 64

/* One OS thread. */
typedef struct pomp_thr {
	uint32_t index; /* OS thread index, the high half of its task IDs */
	uint32_t loc;   /* current location index */
	int has_loc;
	pomp_stat *stat; /* the current location's statistics, cached */
	uint32_t nstat;
	pomp_frame *fr;
	int nfr, capfr;
	int task;         /* index of the innermost task frame */
	uint64_t cur_id;  /* what pomp_thread.current should hold */
	int tracing;      /* GOPARI_MODE=trace on this thread */
	uint8_t slow;     /* SLOW_*: its events take the full paths */
	pomp_evbuf ev;    /* its event stream (events.h) */
	/* The creation in progress on this thread. */
	uint64_t creating;       /* ID of the task being created, or 0 */
	uint64_t create_start;   /* when, if timed */
	uint32_t create_region;
	int create_timed;        /* 0: untimed, 1: certain, 2: a sample */
	int create_untied;       /* by an untied task: it ends at this thread's next event */
	uint64_t undeferred;     /* the last task created here that ran undeferred */
	/* A standalone ordered event left unmeasured. */
	uint32_t skip_region;
	uint64_t unmatched;
	uint32_t cache_parent, cache_num, cache_loc; /* the last child_loc lookup */
	int has_cache;
	uint64_t *ids; /* POMP_MODE_RECORD: (task ID, parent ID) of every task begun here */
	size_t nids, capids;
	pomp_tlinst tlinst[POMP_TLINST];
	/* The creation-tree counters used last, by (parent, child) region:
	 * key is the parent region in the low half and egen, the cache's
	 * generation, in the high half; an entry holds while its generation
	 * is egen's. */
	struct {
		uint64_t key;
		uint32_t child, pad;
		uint64_t *count;
	} ecache[64];
	uint64_t egen; /* the generation, in the high half (EGEN_ONE) */
	uint64_t tlseq;
	/* The end of the run ends the C taskloop tasks that this thread ran
	 * in a closing barrier and whose end it has not seen yet (no event
	 * of its own followed): pomp_rt_close, from the thread that ends the
	 * run, while this thread is idle. close_pending is set by the thread
	 * when it begins such a task, and cleared when it joins a team as a
	 * worker (which ends them itself); only then, recruiting is set
	 * while it does so, and closing while pomp_rt_close works on this
	 * thread: each waits for the other. */
	int close_pending, recruiting, closing;
	/* The MPI call in progress on this thread (libpomp_mpi.a), whose
	 * frame the end of the run closes if the call is still blocked then
	 * (lifecycle.c). */
	int call_state; /* CALL_* */
	int call_frame; /* its frame's index */
	uint32_t section; /* 1 + the number of the section beginning (pomp_rt_section_begin), or 0 */
	struct pomp_cpthr *cp; /* its call paths (callpath.c), with SLOW_CALLPATH */
	struct pomp_thr *next;
} pomp_thr;

enum { CALL_NONE = 0, CALL_IN, CALL_TAKEN };

/* The global state, read by Go at exit. */
typedef struct pomp_rt {
	pthread_mutex_t mu;
	POMP_Unit *units;
	uint32_t nregions; /* region ids run from 1 to nregions */
	POMP_Region **regions;
	uint16_t *rflags; /* per region: RF_* */
	uint64_t *rspan; /* per region: mean ticks from begin to end of its measured instances */
	uint32_t capregions;
	pomp_loc **locs;
	uint32_t nlocs, caplocs;
	pomp_thr *threads;
	uint32_t nthreads;
	uint32_t next_index; /* next OS thread index for task IDs */
	uint64_t tick0, ns0; /* timer at initialization */
	uint64_t end_ns;     /* CLOCK_MONOTONIC when the run ended (pomp_rt_close), or 0 */
	uint64_t realtime0;  /* CLOCK_REALTIME then, in ns */
	int use_tsc;
	int finalized;
	int mode;     /* the run's mode, from GOPARI_MODE; pomp_mode may differ after POMP_Off or a signal */
	int sampling; /* 0: measure every instance */
	int ordered_count; /* GOPARI_ORDERED=count: standalone ordered events are counted, not timed */
	uint64_t ev_mask;        /* the records a thread's stream holds; 0: no stream (events.h) */
	int ev_complete, ev_done; /* set by pomp_ev_finish */
	int ev_all;              /* trace mode: every record of every region */
	int ev_grains;           /* GOPARI_GRAINS=1: the stream holds grains */
	int ev_errno;             /* why the stream stopped (a failed write), or 0 */
	uint32_t ev_stop_thread;  /* the OS thread whose write failed */
	uint64_t ev_stop_ts;      /* when */
	uint64_t long_ticks, short_ticks;
	pthread_mutex_t park_mu;
	pomp_parked *parked[256]; /* by task ID */
	pomp_parked *free_parked;
} pomp_rt;

/* Why a thread's events take the full paths (pomp_thr.slow). */
enum {
	SLOW_RECORD = 1 << 0,  /* POMP_MODE_RECORD */
	SLOW_CALLPATH = 1 << 1 /* call paths are recorded (callpath.c): every frame change is seen */
};

/* The call-path tree (callpath.c), shared by every thread, read by Go at
 * exit. Node 0 is the root, node 1 the overflow; a node's key is a
 * function's address, or CP_REGION | region << 8 | frame kind << 4 |
 * phase for a region frame. Nodes are appended under mu, never moved. */
typedef struct pomp_cptree {
	int on;            /* 1 once call paths are on */
	uint32_t max;      /* GOPARI_CALLPATH_NODES, the root and the overflow node included */
	uint32_t n;        /* nodes so far */
	uint32_t *parent;  /* by node */
	uint64_t *key;     /* by node */
	uint32_t *hash;    /* (parent, key) -> node, 0 for an empty slot; at most half full */
	uint32_t hmask;
	uint64_t hmax;     /* the size it may grow to */
	int lock;          /* pomp_cp_lock: a new node is rare, and short to append */
} pomp_cptree;

extern pomp_cptree pomp_cp;

/* pomp_cp_lock and pomp_cp_unlock guard the tree (cptree.c); they
 * return 1, so that cgo's calls of them have a result to take. */
int pomp_cp_lock(void);
int pomp_cp_unlock(void);

#define CP_REGION (1ull << 63)
#define CP_ROOT 0u
#define CP_OVERFLOW 1u
#define CP_NONE UINT32_MAX /* no path: a thread's time in no task of its own (a closing barrier) */

/* Region flags of the runtime's own. */
enum {
	RF_LONG = 1 << 0,       /* an instance ran for LONG_NS or more: measure all */
	RF_STANDALONE = 1 << 1, /* a standalone ordered (depend, doacross) */
	RF_NOGROUP = 1 << 2,    /* a taskloop with nogroup */
	RF_SCHED = 1 << 3,      /* a task scheduling point: an untied task may move there */
	RF_EXITHOOK = 1 << 4,   /* its exit needs more than closing its frame */
	RF_SHORT = 1 << 5,      /* its measured instances ran shorter than SHORT_NS, but for 1% */
	RF_GRAINEV = 1 << 6,    /* grains mode records its phases: a task waits for its children there, a loop's chunks run there, they name tasks */
	RF_POINT = 1 << 7,      /* a scheduling point without a body of its task's code (taskwait, taskyield, barrier) */
	RF_COUNT = 1 << 8,      /* a standalone ordered counted, never timed (GOPARI_ORDERED=count) */
	RF_GRAINBODY = 1 << 9   /* grains mode records its body phase too: single, sections (grain identity) */
};

#define EGEN_ONE (1ull << 32)

#define SAMPLE_EXACT 1000
#define SAMPLE_EVERY 64 /* a power of 2; profile.json says it (task_sampling) */
#ifndef LONG_NS /* overridable for instruction counts under a simulator */
#define LONG_NS 10000
#endif
#ifndef SHORT_NS
#define SHORT_NS 2000
#endif

/* The runtime's part of POMP_Task_ctx, above the parent's handle: the
 * creation depth (saturating at CTX_DEPTH_MAX) and two bits, MEASURED and
 * LOW: both for a sample (FL_POOL), MEASURED alone for a certain timed
 * instance, LOW alone when only the end of the creation is wanted (an
 * untied creator, a stream). Either makes Task_create_end call the
 * runtime (POMP_CTX_END). */
#define CTX_MEASURED (1ull << 63)
#define CTX_LOW (1ull << 62)
#define CTX_END POMP_CTX_END
#define CTX_DEPTH_SHIFT 48
#define CTX_DEPTH_MAX 0x3fffu
#define CTX_DEPTH(ctx) ((uint32_t)((ctx) >> CTX_DEPTH_SHIFT) & CTX_DEPTH_MAX)
#define CTX_POOL(ctx) (((ctx) & CTX_END) == CTX_END)

extern pomp_rt pomp_g;

/* clock.c, env.c, threads.c (core.h has what only the C part shares) */
uint64_t pomp_now(void);
uint64_t pomp_ns(void);
void pomp_clock_pair(uint64_t *tick, uint64_t *ns);
void pomp_clock_start(int allow_tsc);
void pomp_set_mode(int mode);
pomp_thr *pomp_self(void);
pomp_thr *pomp_self_if_any(void);
pomp_stat *pomp_stat_at(pomp_thr *t, uint32_t region);
/* pomp_frames_restart makes the open frames of t count from tick, in a
 * forked child whose statistics start empty. */
void pomp_frames_restart(pomp_thr *t, uint64_t tick);
/* pomp_settle_closes adds the closing-barrier waits that the n locations
 * still hold to their statistics (before the profile is collected). */
void pomp_settle_closes(pomp_loc **locs, uint32_t n);
/* pomp_rt_close ends what the run leaves open when it ends, before its
 * stream and profile are written: the C taskloop tasks that threads ran
 * in a closing barrier without a later event to end them, and the
 * initial tasks' own time (pomp_loc.initial_own); and notes the run's end
 * (pomp_rt.end_ns), which the wall time counts to. Of the threads other
 * than the caller's only with others set: a forked child has no others. */
void pomp_rt_close(int others);
/* pomp_close_phase_at closes t's top frame, a phase frame, as if it
 * ended at ts: a call that the end of the run interrupted, closed on
 * behalf of t, which does not run meanwhile (regions.c). */
void pomp_close_phase_at(pomp_thr *t, uint64_t ts);

/* env.c: the GOPARI_* variables, read once at start-up. pomp_env_value
 * returns variable k's value: the index of its word (ENV_<VAR>_<WORD>),
 * or a byte count. */
enum {
	ENV_MODE = 0,
	ENV_GRAINS,
	ENV_TRACE_MAX_BYTES,
	ENV_CLOCK,
	ENV_SAMPLING,
	ENV_ORDERED,
	ENV_SUMMARY,
	ENV_RECORD_IDS,
	ENV_CALLPATHS,
	ENV_CALLPATH_NODES,
	ENV_SAMPLE_HZ,
	ENV_SAMPLE_CLOCK,
	ENV_SAMPLE_SIGNAL,
	ENV_COUNT
};
enum { ENV_SAMPLE_CLOCK_CPU = 0, ENV_SAMPLE_CLOCK_WALL };
enum { ENV_CALLPATHS_ON = 0, ENV_CALLPATHS_OFF };
enum { ENV_MODE_PROFILE = 0, ENV_MODE_TRACE, ENV_MODE_IDS, ENV_MODE_OFF };
enum { ENV_CLOCK_TSC = 0, ENV_CLOCK_MONOTONIC };
enum { ENV_SAMPLING_ON = 0, ENV_SAMPLING_OFF };
enum { ENV_ORDERED_TIME = 0, ENV_ORDERED_COUNT };
void pomp_env_read(void);
uint64_t pomp_env_value(int k);
int pomp_env_mode(void);

/* lifecycle.c, signals.c, fork.c, snapshot.c: start-up, exit, signals
 * and fork. A forked child resets the state above in reset_after_fork
 * (fork.c), and hands it to the
 * root as a snapshot that copies these structs: a new pointer field in
 * them needs a line in both places. */
void pomp_init(void);
void pomp_finalize_now(void);
int pomp_control_fd(void);
int pomp_signal_exit(int sig);
int pomp_fork_depth(void);
/* An MPI call (libpomp_mpi.a) marks the frame it has just opened as its
 * call in progress: pomp_call_begin returns what to hand back to
 * pomp_call_end, which returns 1 if the caller still closes the frame,
 * or 0 if the end of the run closed it while the call was blocked. */
int pomp_call_begin(pomp_thr *t);
int pomp_call_end(pomp_thr *t, int prev);
/* pomp_end_run_as ends the run now, as exit names it ("MPI_Abort"): the
 * profile of what was measured so far is written (calls in progress
 * closed) before it returns; the caller then ends the process. */
void pomp_end_run_as(const char *exit);
/* pomp_lock_visit counts a call of a lock routine that does not acquire
 * (type EV_LOCK_RELEASED for an unset), pomp_lock_acquired one that
 * acquired lock l, waiting from t0 to t1 (locks.c). */
void pomp_lock_visit(POMP_Region *r, unsigned type, void *l);
void pomp_lock_acquired(POMP_Region *r, void *l, uint64_t t0, uint64_t t1);

#define POMP_FORK_CHAIN 8

/* The state of a forked child, read from its snapshot in the root. */
typedef struct pomp_snapshot {
	pomp_rt rt;                    /* its runtime state, as collect reads it */
	int32_t pid, ppid, sig, depth; /* sig: 0 for exit() */
	int32_t chain[POMP_FORK_CHAIN]; /* pids of the forks from the root to it */
	uint64_t start_ns, end_ns;     /* its fork and its end */
	const char *exit;              /* "exit" or the signal's name */
	void *map;
	size_t len;
} pomp_snapshot;

int pomp_snapshot_open(int fd, pomp_snapshot *s);
void pomp_snapshot_close(pomp_snapshot *s);

/* Implemented in Go (main.go, events.go). */
extern void pompGoFinalize(char *exit);
extern int pompGoRunDir(char *buf, int n);
extern int pompGoStreamInfo(uint32_t *nregions, uint32_t *nlocs, uint64_t *tick);
extern int pompGoCallpathExcluded(uint64_t **addrs);

#endif
