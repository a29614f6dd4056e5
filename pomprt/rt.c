/*
 * rt.c — the per-event part of libpomp. Everything here runs in C on
 * thread-local memory; Go is reached only at exit (pompGoFinalize).
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rt.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define POMP_HAVE_TSC 1
#endif

/* The public thread state of pomp.h, and the mode. */
POMP_TLS POMP_Thread pomp_thread;
int pomp_mode = POMP_MODE_OFF;

pomp_rt pomp_g = {.mu = PTHREAD_MUTEX_INITIALIZER};

static __thread pomp_thr *self_tls __attribute__((tls_model("initial-exec")));
static int saved_mode = POMP_MODE_PROFILE; /* restored by POMP_On */

/* OpenMP routines, weak so that libpomp links into programs without
 * OpenMP; absent, they behave as in a sequential program. */
extern int omp_get_thread_num(void) __attribute__((weak));

static int thread_num(void) { return omp_get_thread_num ? omp_get_thread_num() : 0; }

/* ---------------------------------------------------------------------
 * Time.
 */
static int use_tsc;

uint64_t pomp_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now(void)
{
#ifdef POMP_HAVE_TSC
	if (__builtin_expect(use_tsc, 1))
		return __rdtsc();
#endif
	return pomp_ns();
}

uint64_t pomp_now(void) { return now(); }

/* invariant_tsc reports whether the TSC ticks at a constant rate in all
 * power states, so that it can time events. */
static int invariant_tsc(void)
{
#ifdef POMP_HAVE_TSC
	unsigned a, b, c, d;
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d))
		return (d >> 8) & 1;
#endif
	return 0;
}

/* ---------------------------------------------------------------------
 * Initialization and finalization.
 */
static void at_exit(void) { pomp_finalize_now(); }

/* ---------------------------------------------------------------------
 * Signals that end a run: SIGINT, SIGTERM and SIGHUP, where the program
 * starts with their default action. The handler only writes the signal
 * number to a pipe; a goroutine (main.go) reads it, writes the profile
 * and ends the process with the same signal. A second signal, or one in
 * a forked child, takes the default action at once. A handler the
 * program installs later replaces this one, as it should.
 */
static int sig_pipe[2] = {-1, -1};
static pid_t sig_pid;
static int sig_seen;
static const int sig_caught[] = {SIGINT, SIGTERM, SIGHUP};

static void die_by(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig); /* delivered when the handler returns */
}

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	if (getpid() != sig_pid || __atomic_fetch_add(&sig_seen, 1, __ATOMIC_SEQ_CST) > 0 ||
	    write(sig_pipe[1], &b, 1) != 1)
		die_by(sig);
	errno = saved;
}

static void catch_signals(void)
{
	if (pipe2(sig_pipe, O_CLOEXEC) != 0)
		return;
	sig_pid = getpid();
	for (size_t i = 0; i < sizeof sig_caught / sizeof sig_caught[0]; i++) {
		struct sigaction old, sa;
		if (sigaction(sig_caught[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
			continue; /* ignored, or the program's own */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(sig_caught[i], &sa, NULL);
	}
}

int pomp_signal_fd(void) { return sig_pipe[0]; }

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	}
	return "signal";
}

/* pomp_signal_exit writes the profile, best effort, while the program's
 * threads may still run (events stop being recorded first), then ends
 * the process by sig with its default action. */
void pomp_signal_exit(int sig)
{
	pomp_mode = POMP_MODE_OFF;
	pthread_mutex_lock(&pomp_g.mu);
	int done = pomp_g.finalized;
	pomp_g.finalized = 1;
	pthread_mutex_unlock(&pomp_g.mu);
	if (!done)
		pompGoFinalize((char *)signal_name(sig));
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* should the signal not end the process */
}

static void init_once(void)
{
	const char *m = getenv("GOPARI_MODE");
	int mode = POMP_MODE_PROFILE;
	if (m && *m) {
		if (!strcmp(m, "off"))
			mode = POMP_MODE_OFF;
		else if (!strcmp(m, "ids"))
			mode = POMP_MODE_IDS;
		else if (!strcmp(m, "profile"))
			mode = POMP_MODE_PROFILE;
		else
			fprintf(stderr, "gopari: GOPARI_MODE=%s is not off, ids or profile; using profile\n", m);
	}
	if (mode == POMP_MODE_IDS && getenv("GOPARI_RECORD_IDS") && *getenv("GOPARI_RECORD_IDS"))
		mode = POMP_MODE_RECORD; /* a test switch: keep every task ID */
	use_tsc = invariant_tsc() && !(getenv("GOPARI_CLOCK") && !strcmp(getenv("GOPARI_CLOCK"), "monotonic"));
	pomp_g.use_tsc = use_tsc;
	pomp_g.ns0 = pomp_ns();
	pomp_g.tick0 = now();
	saved_mode = mode;
	pomp_mode = mode;
	pomp_g.mode = mode;
	if (mode != POMP_MODE_OFF) {
		pomp_self(); /* the initial thread gets index 0 */
		atexit(at_exit);
		catch_signals();
	}
}

void pomp_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, init_once);
}

/* Runs before the constructors of the program (priority 101), so that
 * events from C++ static initializers are counted. */
__attribute__((constructor(101))) static void pomp_ctor(void) { pomp_init(); }

void pomp_finalize_now(void)
{
	pthread_mutex_lock(&pomp_g.mu);
	int done = pomp_g.finalized;
	pomp_g.finalized = 1;
	pthread_mutex_unlock(&pomp_g.mu);
	if (done)
		return;
	pompGoFinalize("exit");
}

/* ---------------------------------------------------------------------
 * Registration of regions, threads and locations.
 */
static void grow_stats(pomp_loc *l, uint32_t need);

void POMP_Register_unit(POMP_Unit *u)
{
	pomp_init();
	if (u->abi_version != POMP_ABI_VERSION) {
		fprintf(stderr, "gopari: %s was instrumented for POMP ABI %u, this runtime has %d; its regions are ignored\n",
		        u->file, u->abi_version, POMP_ABI_VERSION);
		return;
	}
	pthread_mutex_lock(&pomp_g.mu);
	uint32_t need = pomp_g.nregions + u->n_regions + 1;
	if (need > pomp_g.capregions) {
		uint32_t cap = pomp_g.capregions ? pomp_g.capregions : 64;
		while (cap < need)
			cap *= 2;
		pomp_g.regions = realloc(pomp_g.regions, cap * sizeof *pomp_g.regions);
		pomp_g.capregions = cap;
	}
	for (uint32_t i = 0; i < u->n_regions; i++) {
		u->regions[i].id = ++pomp_g.nregions;
		pomp_g.regions[u->regions[i].id] = &u->regions[i];
	}
	u->next = pomp_g.units;
	pomp_g.units = u;
	pthread_mutex_unlock(&pomp_g.mu);
}

static pomp_thr *register_thread(void)
{
	pomp_thr *t = calloc(1, sizeof *t);
	if (!t)
		abort();
	t->task = -1;
	pthread_mutex_lock(&pomp_g.mu);
	t->index = pomp_g.next_index++;
	t->next = pomp_g.threads;
	pomp_g.threads = t;
	pomp_g.nthreads++;
	pthread_mutex_unlock(&pomp_g.mu);
	self_tls = t;
	pomp_thread.next = ((POMP_Task_handle)t->index << 32) | 1;
	if (t->index != 0 && pomp_thread.current == POMP_ROOT_TASK)
		pomp_thread.current = (POMP_Task_handle)t->index << 32; /* its own initial task */
	return t;
}

static inline pomp_thr *self(void)
{
	pomp_thr *t = self_tls;
	if (__builtin_expect(t != NULL, 1))
		return t;
	return register_thread();
}

pomp_thr *pomp_self(void) { return self(); }

POMP_Task_handle pomp_rt_thread_new(void)
{
	if (!self_tls) {
		register_thread();
	} else {
		/* The counter wrapped after 2^32 - 1 IDs: continue under a fresh
		 * index, so that IDs stay unique. */
		pthread_mutex_lock(&pomp_g.mu);
		uint32_t idx = pomp_g.next_index++;
		pthread_mutex_unlock(&pomp_g.mu);
		pomp_thread.next = ((POMP_Task_handle)idx << 32) | 1;
	}
	return pomp_thread.next;
}

/* new_loc creates a location; the caller holds pomp_g.mu. */
static uint32_t new_loc(uint32_t parent, uint32_t num, uint32_t level, uint32_t os)
{
	if (pomp_g.nlocs == pomp_g.caplocs) {
		uint32_t cap = pomp_g.caplocs ? 2 * pomp_g.caplocs : 64;
		pomp_loc **l = malloc(cap * sizeof *l);
		if (pomp_g.nlocs)
			memcpy(l, pomp_g.locs, pomp_g.nlocs * sizeof *l);
		/* The old array is never freed: threads may still read it. */
		pomp_g.locs = l;
		pomp_g.caplocs = cap;
	}
	pomp_loc *l = calloc(1, sizeof *l);
	if (!l)
		abort();
	l->index = pomp_g.nlocs;
	l->parent = parent == UINT32_MAX ? l->index : parent;
	l->num = num;
	l->level = level;
	l->os_thread = os;
	grow_stats(l, pomp_g.nregions + 1);
	pomp_g.locs[pomp_g.nlocs++] = l;
	return l->index;
}

/* root_loc returns the location of an initial thread. */
static uint32_t root_loc(pomp_thr *t)
{
	pthread_mutex_lock(&pomp_g.mu);
	uint32_t found = UINT32_MAX;
	for (uint32_t i = 0; i < pomp_g.nlocs; i++) {
		pomp_loc *l = pomp_g.locs[i];
		if (l->level == 0 && l->num == t->index) {
			found = i;
			break;
		}
	}
	if (found == UINT32_MAX)
		found = new_loc(UINT32_MAX, t->index, 0, t->index);
	pthread_mutex_unlock(&pomp_g.mu);
	return found;
}

/* child_loc returns the location of thread num of the team forked by
 * location parent. */
static uint32_t child_loc(pomp_thr *t, uint32_t parent, uint32_t num)
{
	if (t->has_cache && t->cache_parent == parent && t->cache_num == num)
		return t->cache_loc;
	pthread_mutex_lock(&pomp_g.mu);
	uint32_t found = UINT32_MAX;
	for (uint32_t i = 0; i < pomp_g.nlocs; i++) {
		pomp_loc *l = pomp_g.locs[i];
		if (l->level > 0 && l->parent == parent && l->num == num) {
			found = i;
			break;
		}
	}
	if (found == UINT32_MAX)
		found = new_loc(parent, num, pomp_g.locs[parent]->level + 1, t->index);
	pthread_mutex_unlock(&pomp_g.mu);
	t->cache_parent = parent;
	t->cache_num = num;
	t->cache_loc = found;
	t->has_cache = 1;
	return found;
}

/* set_loc makes location i current for thread t. */
static void set_loc(pomp_thr *t, uint32_t i)
{
	pomp_loc *l = pomp_g.locs[i];
	t->loc = i;
	t->has_loc = 1;
	t->stat = l->stat;
	t->nstat = l->nstat;
}

static inline __attribute__((always_inline)) pomp_loc *cur_loc(pomp_thr *t)
{
	if (__builtin_expect(!t->has_loc, 0))
		set_loc(t, root_loc(t));
	return pomp_g.locs[t->loc];
}

static void grow_stats(pomp_loc *l, uint32_t need)
{
	uint32_t cap = l->nstat ? l->nstat : 64;
	while (cap < need)
		cap *= 2;
	pomp_stat *s = calloc(cap, sizeof *s);
	if (!s)
		abort();
	if (l->nstat)
		memcpy(s, l->stat, l->nstat * sizeof *s);
	for (uint32_t i = l->nstat; i < cap; i++) {
		s[i].create_min = UINT64_MAX;
		s[i].exec_min = UINT64_MAX;
	}
	/* The old array leaks on purpose: a finalizer may be reading it. */
	l->stat = s;
	l->nstat = cap;
}

static __attribute__((noinline)) pomp_stat *stat_slow(pomp_thr *t, uint32_t region)
{
	pomp_loc *l = cur_loc(t);
	if (region >= l->nstat)
		grow_stats(l, region + 1);
	t->stat = l->stat;
	t->nstat = l->nstat;
	return &l->stat[region];
}

static inline __attribute__((always_inline)) pomp_stat *stat_at(pomp_thr *t, uint32_t region)
{
	if (__builtin_expect(region < t->nstat, 1))
		return &t->stat[region];
	return stat_slow(t, region);
}

pomp_stat *pomp_stat_at(pomp_thr *t, uint32_t region) { return stat_at(t, region); }

/* ---------------------------------------------------------------------
 * The frame stack.
 */
static __attribute__((noinline)) void grow_frames(pomp_thr *t)
{
	int cap = t->capfr ? 2 * t->capfr : 32;
	pomp_frame *f = realloc(t->fr, cap * sizeof *f);
	if (!f)
		abort();
	t->fr = f;
	t->capfr = cap;
}

static inline __attribute__((always_inline)) pomp_frame *push(pomp_thr *t)
{
	if (__builtin_expect(t->nfr == t->capfr, 0))
		grow_frames(t);
	return &t->fr[t->nfr++];
}

/* find returns the index of the innermost frame of region and kind (and
 * phase, for FR_PHASE), or -1. Frames above it were abandoned by
 * cancellation, an exit from the middle of a region, or an untied task
 * that moved to another thread. */
static int find(pomp_thr *t, uint32_t region, int kind, int phase)
{
	for (int i = t->nfr - 1; i >= 0; i--) {
		pomp_frame *f = &t->fr[i];
		if (f->region == region && f->kind == kind && (kind != FR_PHASE || f->phase == phase))
			return i;
		if (f->kind == FR_TASK || f->kind == FR_IMPLICIT)
			break; /* never unwind past a task of another region */
	}
	return -1;
}

/* unwind drops the frames above index i, restoring the task chain. */
static void unwind(pomp_thr *t, int i)
{
	if (t->nfr - 1 > i)
		t->unmatched += t->nfr - 1 - i;
	while (t->task > i)
		t->task = t->fr[t->task].prev_task;
	t->nfr = i + 1;
}

/* close pops frame i and accounts its phase; it returns the inclusive
 * ticks. */
static uint64_t close_phase(pomp_thr *t, int i, uint64_t end)
{
	pomp_frame *f = &t->fr[i];
	uint64_t incl = end - f->start;
	pomp_phase *p = &stat_at(t, f->region)->ph[f->phase];
	p->visits++;
	p->incl += incl;
	p->excl += incl > f->child ? incl - f->child : 0;
	t->nfr = i;
	if (i > 0)
		t->fr[i - 1].child += incl;
	return incl;
}

static int phase_of(int ev)
{
	switch (ev) {
	case POMP_EV_BODY:
		return PH_BODY;
	case POMP_EV_BARRIER:
		return PH_BARRIER;
	case POMP_EV_WAIT:
		return PH_WAIT;
	}
	return PH_CONSTRUCT;
}

/* ---------------------------------------------------------------------
 * Region events.
 */
void pomp_rt_enter(POMP_Region *r, int ev)
{
	pomp_thr *t = self();
	uint64_t ts = now();
	pomp_frame *f = push(t);
	f->region = r->id;
	f->kind = FR_PHASE;
	f->phase = (uint16_t)phase_of(ev);
	f->timed = 1;
	f->start = ts;
	f->child = 0;
}

void pomp_rt_exit(POMP_Region *r, int ev)
{
	uint64_t ts = now();
	pomp_thr *t = self();
	int i = find(t, r->id, FR_PHASE, phase_of(ev));
	if (i < 0) {
		t->unmatched++;
		return;
	}
	unwind(t, i);
	close_phase(t, i, ts);
}

/* ---------------------------------------------------------------------
 * Tasks.
 */
static void add_edge(pomp_stat *s, uint32_t parent)
{
	for (uint32_t i = 0; i < s->nedges; i++) {
		if (s->edges[i].parent == parent) {
			s->edges[i].count++;
			return;
		}
	}
	if (s->nedges < POMP_EDGES) {
		s->edges[s->nedges].parent = parent;
		s->edges[s->nedges].count = 1;
		s->nedges++;
		return;
	}
	s->other_parents++;
}

/* Creations of a region at a location are all timed until this many,
 * then one in CREATE_SAMPLE; counts are always exact. */
#define CREATE_EXACT 256
#define CREATE_SAMPLE 8

POMP_Task_info pomp_rt_task_create_begin(POMP_Region *r)
{
	pomp_thr *t = self();
	if (pomp_mode != POMP_MODE_PROFILE)
		return 0;
	pomp_stat *s = stat_at(t, r->id);
	uint32_t parent = 0, depth = 0;
	if (t->task >= 0) {
		parent = t->fr[t->task].region;
		depth = t->fr[t->task].depth;
	}
	s->created++;
	add_edge(s, parent);
	if (depth + 1 > s->max_depth)
		s->max_depth = depth + 1;
	t->creating = r->id;
	/* Only timed creations push a frame. Counted per region and
	 * location, so that interleaved regions are sampled alike. */
	if (s->created <= CREATE_EXACT || s->created % CREATE_SAMPLE == 0) {
		pomp_frame *f = push(t);
		f->region = r->id;
		f->kind = FR_CREATE;
		f->phase = PH_CONSTRUCT;
		f->child = 0;
		f->start = now();
	}
	return depth + 1;
}

void pomp_rt_task_create_end(POMP_Region *r)
{
	pomp_thr *t = self();
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	t->creating = 0;
	/* Frames pushed since the matching create_begin are all popped by
	 * now, so the top frame is this creation's if it was timed. */
	int i = t->nfr - 1;
	if (i < 0 || t->fr[i].kind != FR_CREATE || t->fr[i].region != r->id)
		return;
	uint64_t d = now() - t->fr[i].start;
	pomp_stat *s = stat_at(t, r->id);
	s->create_timed++;
	s->create_sum += d;
	if (d < s->create_min)
		s->create_min = d;
	if (d > s->create_max)
		s->create_max = d;
	t->nfr = i;
}

static void record_id(pomp_thr *t, POMP_Task_handle id)
{
	if (t->nids == t->capids) {
		size_t cap = t->capids ? 2 * t->capids : 1 << 16;
		uint64_t *p = realloc(t->ids, cap * sizeof *p);
		if (!p)
			abort();
		t->ids = p;
		t->capids = cap;
	}
	t->ids[t->nids++] = id;
}

void pomp_rt_task_begin(POMP_Region *r, POMP_Task_handle parent, POMP_Task_info info, POMP_Task_handle id)
{
	pomp_thr *t = self();
	(void)parent;
	if (pomp_mode == POMP_MODE_RECORD) {
		record_id(t, id);
		return;
	}
	uint64_t ts = now();
	pomp_stat *s = stat_at(t, r->id);
	s->executed++;
	if (t->creating == r->id) /* begun by its creator before create_end */
		s->undeferred++;
	t->creating = 0;
	if (t->task >= 0) {
		pomp_frame *c = &t->fr[t->task];
		c->exec += ts - c->resume;
		c->susp++;
	}
	pomp_frame *f = push(t);
	f->region = r->id;
	f->kind = FR_TASK;
	f->phase = PH_CONSTRUCT;
	f->timed = 1;
	f->start = f->resume = ts;
	f->child = 0;
	f->exec = 0;
	f->susp = 0;
	f->depth = (uint32_t)info;
	f->prev_task = t->task;
	t->task = t->nfr - 1;
}

/* end_task closes the task or implicit-task frame i at time ts. */
static inline __attribute__((always_inline)) void end_task(pomp_thr *t, int i, uint64_t ts, pomp_stat *s, int phase)
{
	pomp_frame *f = &t->fr[i];
	uint64_t exec = f->exec + (ts - f->resume);
	uint64_t incl = ts - f->start;
	pomp_phase *p = &s->ph[phase];
	p->visits++;
	p->incl += incl;
	p->excl += exec > f->child ? exec - f->child : 0;
	s->suspensions += f->susp;
	if (f->kind == FR_TASK) {
		s->exec_sum += exec;
		if (exec < s->exec_min)
			s->exec_min = exec;
		if (exec > s->exec_max)
			s->exec_max = exec;
	}
	t->task = f->prev_task;
	t->nfr = i;
	if (t->task >= 0)
		t->fr[t->task].resume = ts;
	if (i > 0)
		t->fr[i - 1].child += incl;
}

void pomp_rt_task_end(POMP_Region *r)
{
	uint64_t ts = now();
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD)
		return;
	int i = t->task;
	if (i < 0 || t->fr[i].kind != FR_TASK || t->fr[i].region != r->id) {
		t->unmatched++; /* an untied task that moved here from another thread */
		return;
	}
	unwind(t, i);
	end_task(t, i, ts, stat_at(t, r->id), PH_CONSTRUCT);
}

/* ---------------------------------------------------------------------
 * Parallel regions.
 */
POMP_Task_info POMP_Parallel_fork(POMP_Region *r, POMP_Task_handle encountering)
{
	(void)encountering;
	if (pomp_mode < POMP_MODE_PROFILE)
		return 0;
	pomp_thr *t = self();
	cur_loc(t);
	uint64_t ts = now();
	pomp_frame *f = push(t);
	f->region = r->id;
	f->kind = FR_FORK;
	f->phase = PH_CONSTRUCT;
	f->start = ts;
	f->child = 0;
	f->saved_loc = t->loc;
	return (POMP_Task_info)t->loc + 1;
}

void POMP_Parallel_begin(POMP_Region *r, POMP_Task_handle encountering, POMP_Task_info team)
{
	(void)encountering;
	if (pomp_mode == POMP_MODE_OFF)
		return;
	POMP_Task_handle id = POMP_New_task_id();
	pomp_thread.current = id;
	pomp_thr *t = self();
	if (pomp_mode == POMP_MODE_RECORD)
		record_id(t, id);
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	uint64_t ts = now();
	uint32_t parent = team ? (uint32_t)(team - 1) : (cur_loc(t), t->loc);
	uint32_t saved = t->has_loc ? t->loc : parent;
	set_loc(t, child_loc(t, parent, (uint32_t)thread_num()));
	pomp_g.locs[t->loc]->implicit_tasks++;
	if (t->task >= 0) {
		pomp_frame *c = &t->fr[t->task];
		c->exec += ts - c->resume;
		c->susp++;
	}
	pomp_frame *f = push(t);
	f->region = r->id;
	f->kind = FR_IMPLICIT;
	f->phase = PH_BODY;
	f->timed = 1;
	f->start = f->resume = ts;
	f->child = 0;
	f->exec = 0;
	f->susp = 0;
	f->depth = 0;
	f->prev_task = t->task;
	f->saved_loc = saved;
	t->task = t->nfr - 1;
}

void POMP_Parallel_end(POMP_Region *r)
{
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	uint64_t ts = now();
	pomp_thr *t = self();
	int i = t->task;
	if (i < 0 || t->fr[i].kind != FR_IMPLICIT || t->fr[i].region != r->id) {
		t->unmatched++;
		return;
	}
	unwind(t, i);
	/* The location stays: tasks run in the region's closing barrier
	 * belong to this team. */
	end_task(t, i, ts, stat_at(t, r->id), PH_BODY);
}

void POMP_Parallel_join(POMP_Region *r, POMP_Task_handle encountering)
{
	(void)encountering;
	if (pomp_mode != POMP_MODE_PROFILE)
		return;
	uint64_t ts = now();
	pomp_thr *t = self();
	int i = find(t, r->id, FR_FORK, 0);
	if (i < 0) {
		t->unmatched++;
		return;
	}
	unwind(t, i);
	set_loc(t, t->fr[i].saved_loc);
	close_phase(t, i, ts);
}

/* ---------------------------------------------------------------------
 * Cleanup handlers, for bodies left by cancellation.
 */
void POMP_Parallel_end_cleanup(POMP_Region **r) { POMP_Parallel_end(*r); }

void POMP_Task_end_cleanup(POMP_Region **r) { POMP_Task_end(*r); }

void POMP_Body_end_cleanup(POMP_Region **r)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_rt_exit(*r, (*r)->kind == POMP_MASTER ? POMP_EV_CONSTRUCT : POMP_EV_BODY);
}

/* ---------------------------------------------------------------------
 * User control.
 */
void POMP_Init(void) { pomp_init(); }

void POMP_Off(void)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_mode = POMP_MODE_IDS;
}

void POMP_On(void)
{
	if (saved_mode >= POMP_MODE_PROFILE)
		pomp_mode = saved_mode;
}
