/*
 * callpath.c — call paths: the compiler's function hooks
 * (-finstrument-functions, gopari cc --functions) and the tree of paths
 * that functions and region frames make, per task.
 *
 * Call paths turn on at the first hook call of the run, unless
 * GOPARI_CALLPATHS=off or the mode is not profile (or trace): a program
 * built without --functions never calls a hook and pays nothing. Once on,
 * every thread's events take the full paths (SLOW_CALLPATH), and every
 * task is timed (no sampling), so that each frame change is seen here.
 *
 * PATHS. One tree is shared by all threads (pomp_cp, rt.h): a node is
 * its parent and a key (a function's address, or a region frame). A
 * thread finds a child through a direct-mapped cache of its own, without
 * a lock; a new node is appended under the tree's lock. When the tree holds
 * GOPARI_CALLPATH_NODES nodes, new paths and everything below them go to
 * the overflow node. Recursion makes a node per depth.
 *
 * Each frame of a thread's stack has a path (fpath, parallel to the
 * frames): a region phase or fork frame hangs below the path current
 * when it opened; an explicit task below the path current where it was
 * created (found through its creator's ring of creations, indexed by its
 * ID), whichever thread runs it; an implicit task below its team's fork;
 * a taskloop task below the path that encountered the taskloop. Function
 * calls live on a stack of their own, each owned by the frame on top when
 * it began; the current path is the top call owned by the top frame, or
 * that frame's path. A closing implicit task has no path: the closing
 * barrier's time is the region profile's alone.
 *
 * The OpenMP runtime calls a task's outlined function before the task's
 * begin event: calls still open at a task's begin that began after this
 * thread's last frame change are the runtime's wrappers of its body; they
 * move below the task (adopted), so that a task's calls hang below it.
 *
 * TIME. Path time is kept apart from region time: the thread keeps its
 * current path and when it last changed, and adds the time since to the
 * path's exclusive ticks at its location whenever the path changes (call
 * enter or exit, frame push or pop, task switch). A call reads the clock
 * once at its enter and once at its exit. Region statistics are not
 * touched: instrumenting functions leaves the region profile as it was.
 *
 * TRACE. In trace mode a measured call writes FUNC_ENTER at its enter
 * and FUNC_EXIT at its exit (events.h), with the clock reading the path
 * time takes, so no other; an excluded or unmatched call writes nothing.
 * A task's begin that adopts calls writes FUNC_ADOPT, their number, just
 * before the begin record: the replay (internal/timeline) moves them
 * into the task as this file does. In profile mode each hook tests the
 * stream's mask once more (a load and a branch, not taken).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "callpath.h"

pomp_cptree pomp_cp;

extern int omp_get_level(void) __attribute__((weak));

/* The threads' rings by thread index (modulo): a task's begin finds its
 * creation there; a stale or foreign slot is told by the task ID. */
pomp_cpthr *pomp_cp_threads[1024];

/* The functions left out (the filter, and gopari's own): sorted entry
 * addresses, handed from Go once (pompGoCallpathExcluded). */
static uint64_t *cp_out;
static int cp_nout;
static uint32_t cp_gen = 1; /* filter decisions made under this filter */

/* The functions the filter left out that this thread called, direct
 * mapped: the hooks test it first, before anything else, so that a
 * function left out at run time costs its hook calls a shift, a mask and
 * a compare with thread-local memory (initial-exec TLS, one %fs-relative
 * load). Only decisions made under the filter go in, and a decision
 * never changes, so an entry is never stale; a function left out is
 * never measured, so its exit has no call to close either. */
static __thread uint64_t cp_skip[CP_SKIP] __attribute__((tls_model("initial-exec")));

static inline unsigned skip_slot(uint64_t fn)
{
	return (unsigned)(fn >> 4) & (CP_SKIP - 1);
}
static int cp_filtered;     /* the filter is in force */
static int cp_go_ready;     /* Go's runtime is up: the filter can be asked for */

int pomp_cp_go_ready(void)
{
	__atomic_store_n(&cp_go_ready, 1, __ATOMIC_RELEASE);
	return 1;
}

/* ---------------------------------------------------------------------
 * The tree, through a per-thread cache of lookups (cptree.c has it).
 */
static __attribute__((noinline)) uint32_t child_slow(pomp_cpthr *c, uint32_t parent, uint64_t key, unsigned hash)
{
	pomp_cp_lock();
	uint32_t ch = pomp_cp_child_locked(parent, key, hash);
	pomp_cp_unlock();
	unsigned h = hash & (CP_CACHE - 1);
	c->cache[h].key = key;
	c->cache[h].parent = parent;
	c->cache[h].child = ch;
	return ch;
}

/* child returns the path of key below path parent. */
static inline uint32_t child(pomp_cpthr *c, uint32_t parent, uint64_t key)
{
	if (parent == CP_NONE || parent == CP_OVERFLOW)
		return parent;
	unsigned hash = hash2(parent, key), h = hash & (CP_CACHE - 1);
	if (__builtin_expect(c->cache[h].key == key && c->cache[h].parent == parent, 1))
		return c->cache[h].child;
	return child_slow(c, parent, key, hash);
}

static uint64_t frame_key(const pomp_frame *f)
{
	int phase = f->kind == FR_PHASE ? f->phase : 0;
	return CP_REGION | (uint64_t)f->region << 8 | (uint64_t)f->kind << 4 | (uint64_t)phase;
}

/* ---------------------------------------------------------------------
 * Counters, per location.
 */
/* counts_map maps a location's counters for every node the tree may
 * hold, in memory the kernel zeroes as it is first touched: nodes are
 * numbered in order, so a run touches the pages of the nodes it made,
 * and none is cleared or copied as the tree grows (fib with a cutoff
 * spent 90 instructions a task doing so with doubling arrays). NULL if
 * the kernel will not. */
static pomp_cpcount *counts_map(void)
{
	size_t size = (size_t)pomp_cp.max * sizeof(pomp_cpcount);
	void *a = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return a == MAP_FAILED ? NULL : a;
}

/* COUNTS_STEP is how many nodes' counters of a mapping are opened at a
 * time (64 KiB): a page's first touch must be a write. An increment reads
 * first, and a page first read is the kernel's shared zero page, which
 * the write then replaces with a TLB flush of the other processors by
 * interrupt. */
#define COUNTS_STEP 4096

/* open_counts writes the pages of the counters from node from up to (not
 * including) node to of mapping a, none of which was touched yet (from
 * is a multiple of COUNTS_STEP: it starts a page). */
static void open_counts(pomp_cpcount *a, uint32_t from, uint32_t to)
{
	volatile char *p = (volatile char *)a;
	for (size_t b = (size_t)from * sizeof *a; b < (size_t)to * sizeof *a; b += 4096)
		p[b] = 0;
}

static __attribute__((noinline)) pomp_cpcount *grow_counts(pomp_loc *l, uint32_t node)
{
	pomp_cpcount *a = l->cp;
	int mapped = l->cp_mapped;
	if (!a && (a = counts_map()))
		mapped = 1;
	uint32_t cap;
	if (mapped) { /* open the mapping's pages up to node */
		cap = node / COUNTS_STEP * COUNTS_STEP + COUNTS_STEP;
		if (cap > pomp_cp.max)
			cap = pomp_cp.max;
		open_counts(a, l->ncp, cap);
	} else { /* doubling, in the heap */
		cap = l->ncp ? l->ncp : 64;
		while (cap <= node)
			cap *= 2;
		if (cap > pomp_cp.max)
			cap = pomp_cp.max;
		if (!(a = calloc(cap, sizeof *a)))
			abort();
	}
	pthread_mutex_lock(&pomp_g.mu); /* Go reads them under it */
	pomp_cpcount *old = l->cp;
	if (!mapped && l->ncp)
		memcpy(a, old, l->ncp * sizeof *a);
	l->cp = a;
	l->ncp = cap;
	l->cp_mapped = (uint8_t)mapped;
	pthread_mutex_unlock(&pomp_g.mu);
	if (old != a)
		free(old);
	return &a[node];
}

static inline pomp_cpcount *count(pomp_thr *t, uint32_t node)
{
	pomp_loc *l = cur_loc(t);
	if (__builtin_expect(node < l->ncp, 1))
		return &l->cp[node];
	return grow_counts(l, node);
}

/* Light call paths: turned on by sampling alone (sample.c), before any
 * hook call, the tree serves the samples only. Frames still change the
 * current path and count visits, but read no clock and charge no path
 * time, and tasks keep the runtime's sampled timing: sampling a task
 * program costs what the samples cost, not a clock read per frame. The
 * first hook call (a program built with --functions) makes them whole. */
static int cp_light;

static inline int cp_is_light(void) { return __atomic_load_n(&cp_light, __ATOMIC_RELAXED); }

int pomp_cp_is_light(void) { return cp_is_light(); }

/* stamp is ts, or the clock when ts is 0 and path time is kept. */
static inline uint64_t stamp(uint64_t ts) { return ts || cp_is_light() ? ts : now(); }

/* charge adds the time since the last change to the current path; a
 * stamp of 0 (light call paths) charges nothing. */
static inline void charge(pomp_thr *t, pomp_cpthr *c, uint64_t ts)
{
	if (!ts)
		return;
	if (c->cur != CP_NONE && ts > c->last)
		count(t, c->cur)->excl += ts - c->last;
	c->last = ts;
}

static inline void visit(pomp_thr *t, uint32_t node)
{
	if (node != CP_NONE)
		count(t, node)->visits++;
}

/* unvisit takes back the visit of call e where it was counted. */
static void unvisit(const pomp_cpcall *e)
{
	if (e->path == CP_NONE || e->loc >= pomp_g.nlocs)
		return;
	pomp_loc *l = pomp_g.locs[e->loc];
	if (e->path < l->ncp && l->cp[e->path].visits)
		l->cp[e->path].visits--;
}

/* ---------------------------------------------------------------------
 * The current path.
 */
static __attribute__((noinline)) void grow_fpath(pomp_cpthr *c, int k, int capfr)
{
	int cap = capfr > k ? capfr : k + 1;
	uint32_t *a = realloc(c->fpath, (size_t)cap * sizeof *a);
	if (!a)
		abort();
	for (int i = c->capf; i < cap; i++)
		a[i] = CP_ROOT;
	c->fpath = a;
	c->capf = cap;
}

static inline void set_fpath(pomp_thr *t, pomp_cpthr *c, int k, uint32_t path)
{
	if (__builtin_expect(k >= c->capf, 0))
		grow_fpath(c, k, t->capfr);
	c->fpath[k] = path;
}

static inline uint32_t fpath_at(const pomp_cpthr *c, int k) { return k < c->capf ? c->fpath[k] : CP_ROOT; }

/* path_of returns the path current on frame k: its latest call, or its
 * own path. Calls owned by frames above k are stale. */
static inline uint32_t path_of(const pomp_cpthr *c, int k)
{
	int i = c->n - 1;
	while (i >= 0 && c->cs[i].owner > k)
		i--;
	return i >= 0 && c->cs[i].owner == k ? c->cs[i].path : fpath_at(c, k);
}

/* settle makes the current path the one t's state says, at ts. */
static inline void settle(pomp_thr *t, pomp_cpthr *c, uint64_t ts)
{
	charge(t, c, ts);
	c->cur = path_of(c, t->nfr - 1);
}

static void grow_calls(pomp_cpthr *c, int need)
{
	int cap = c->cap ? c->cap : 64;
	while (cap < need)
		cap *= 2;
	pomp_cpcall *a = realloc(c->cs, (size_t)cap * sizeof *a);
	if (!a)
		abort();
	c->cs = a;
	c->cap = cap;
}

/* ---------------------------------------------------------------------
 * Turning call paths on.
 */
static pomp_cpthr *cp_thread(pomp_thr *t)
{
	pomp_cpthr *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	grow_fpath(c, 0, t->capfr > 0 ? t->capfr : 16);
	/* An OpenMP worker (first seen in a team) runs nothing of its own
	 * outside tasks: its wrappers begin there before its implicit task
	 * adopts them. A thread the program started runs its own code. */
	if (t->index != 0 && t->nfr == 1 && omp_get_level && omp_get_level() > 0)
		c->fpath[0] = CP_NONE;
	c->last = now();
	c->cur = path_of(c, t->nfr - 1);
	t->cp = c;
	__atomic_store_n(&pomp_cp_threads[t->index & 1023], c, __ATOMIC_RELEASE);
	pomp_thread_slow(t, SLOW_CALLPATH);
	return c;
}

/* pomp_cp_thread_new sets call paths up on a thread registered while
 * they are on (threads.c). */
void pomp_cp_thread_new(pomp_thr *t)
{
	if (__atomic_load_n(&pomp_cp.on, __ATOMIC_ACQUIRE) == 1)
		cp_thread(t);
}

/* turn_on decides, once, whether call paths are on: light (sampling
 * alone) or whole; whole ones stay whole, light ones become whole at the
 * first hook call. */
static int turn_on(int lite)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&mu);
	if (pomp_cp.on == 0) {
		int on = pomp_g.mode == POMP_MODE_PROFILE && pomp_env_value(ENV_CALLPATHS) != ENV_CALLPATHS_OFF;
		if (on && (on = pomp_cp_tree_init())) {
			__atomic_store_n(&cp_light, lite, __ATOMIC_RELAXED);
			if (!lite)
				pomp_g.sampling = 0; /* every frame timed */
		}
		__atomic_store_n(&pomp_cp.on, on ? 1 : -1, __ATOMIC_RELEASE);
	} else if (pomp_cp.on == 1 && !lite && cp_is_light()) {
		pomp_g.sampling = 0;
		__atomic_store_n(&cp_light, 0, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&mu);
	return pomp_cp.on == 1;
}

/* enable decides, at the first hook call, whether call paths are on. */
static __attribute__((noinline)) int enable(void) { pomp_init(); return turn_on(0); }

/* load_filter asks Go, once, for the functions left out. */
static __attribute__((noinline)) void load_filter(void)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&mu);
	if (!__atomic_load_n(&cp_filtered, __ATOMIC_ACQUIRE)) {
		uint64_t *a = NULL;
		int n = pompGoCallpathExcluded(&a);
		cp_out = a;
		cp_nout = n > 0 ? n : 0;
		__atomic_store_n(&cp_gen, 2, __ATOMIC_RELEASE);
		__atomic_store_n(&cp_filtered, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mu);
}

/* The program's main, where the filter is read if Go's runtime was not up
 * before: the constructors have run, so Go's runtime is starting (a call
 * into Go waits for it). */
extern int main(int, char **) __attribute__((weak));

/* decide decides, once per function, whether the filter leaves it out.
 * Until the filter is read, functions are not measured, nor decided:
 * those that run before Go's runtime is up and before main, the
 * constructors (gopari's own pomp_register among them). */
static __attribute__((noinline)) int decide(pomp_cpthr *c, uint64_t fn, unsigned h)
{
	if (cp_is_light())
		turn_on(0); /* a hook call: the paths become whole */
	if (!__atomic_load_n(&cp_filtered, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&cp_go_ready, __ATOMIC_ACQUIRE) && fn != (uint64_t)(uintptr_t)main)
			return 1;
		load_filter();
		pomp_thr *t = pomp_self_tls;
		if (t && t->cp == c)
			c->last = now(); /* reading the symbols is no path's time */
	}
	int lo = 0, hi = cp_nout;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cp_out[mid] < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	int out = lo < cp_nout && cp_out[lo] == fn;
	if (out)
		cp_skip[skip_slot(fn)] = fn;
	c->fcache[h].fn = fn;
	c->fcache[h].out = out;
	c->fcache[h].gen = cp_gen;
	return out;
}

/* excluded reports whether the filter leaves function fn out: one test
 * once decided. */
static inline int excluded(pomp_cpthr *c, uint64_t fn)
{
	unsigned h = (unsigned)(fn >> 4) & (CP_FCACHE - 1);
	if (__builtin_expect(c->fcache[h].fn == fn && c->fcache[h].gen == cp_gen, 1))
		return c->fcache[h].out;
	return decide(c, fn, h);
}

/* hook_thread returns the calling thread, set up for call paths, or
 * NULL if they are off. */
static __attribute__((noinline)) pomp_thr *hook_thread(void)
{
	if (pomp_cp.on == 0 && !enable())
		return NULL;
	if (pomp_cp.on != 1 || pomp_mode != POMP_MODE_PROFILE)
		return NULL;
	pomp_thr *t = self();
	if (!t->cp)
		cp_thread(t); /* a thread registered before call paths were on */
	return t;
}

/* For sample.c: call paths on from start-up, on the initial thread t;
 * t's current path (CP_ROOT without call paths), for its handler. */
int pomp_cp_sampled(pomp_thr *t)
{
	if (turn_on(1) && !t->cp)
		cp_thread(t);
	return pomp_cp.on == 1;
}
uint32_t pomp_cp_current(const pomp_thr *t) { return t->cp ? __atomic_load_n(&t->cp->cur, __ATOMIC_RELAXED) : CP_ROOT; }

/* ---------------------------------------------------------------------
 * The hooks.
 */
/* enter_on begins a measured call of fn on t: a clock read, the child
 * path from the thread's cache, the call pushed, the time so far charged
 * to the path that was current, a visit counted. */
static __attribute__((noinline)) void enter_on(pomp_thr *t, pomp_cpthr *c, uint64_t fn)
{
	uint64_t ts = now();
	int top = t->nfr - 1, n = c->n;
	while (n && c->cs[n - 1].owner > top)
		n--; /* stale: their frames were dropped */
	if (c->evn > n)
		c->evn = n;
	uint32_t base = n && c->cs[n - 1].owner == top ? c->cs[n - 1].path : fpath_at(c, top);
	uint32_t node = child(c, base, fn);
	if (__builtin_expect(n == c->cap, 0))
		grow_calls(c, n + 1);
	c->cs[n] = (pomp_cpcall){fn, node, top, t->loc, 0};
	c->n = n + 1;
	EV(t, EV_FUNC_ENTER, 0, ts, 1, fn, 0, 0); /* trace mode only: one test of the mask otherwise */
	uint32_t cur = c->cur;
	if (cur == CP_NONE && node == CP_NONE) {
		c->last = ts; /* a worker's wrapper before its implicit task: no location yet */
	} else if (__builtin_expect(cur < cur_loc(t)->ncp && node < cur_loc(t)->ncp, 1)) {
		pomp_loc *l = cur_loc(t);
		l->cp[cur].excl += ts - c->last;
		l->cp[node].visits++;
		c->last = ts;
	} else {
		charge(t, c, ts);
		visit(t, node);
	}
	c->cur = node;
}

/* exit_on ends the open call of fn on t. */
static __attribute__((noinline)) void exit_on(pomp_thr *t, pomp_cpthr *c, uint64_t fn)
{
	uint64_t ts = now();
	int top = t->nfr - 1, i = c->n - 1;
	while (i >= 0 && c->cs[i].owner > top)
		i--;
	int j = i;
	while (j >= 0 && c->cs[j].owner >= t->task && c->cs[j].fn != fn)
		j--;
	if (j < 0 || c->cs[j].owner < t->task) {
		c->unmatched++; /* no open call of fn in this task */
		return;
	}
	charge(t, c, ts);
	EV(t, EV_FUNC_EXIT, 0, ts, 1, fn, 0, 0);
	c->n = j;
	if (c->evn > j)
		c->evn = j;
	c->cur = j > 0 && c->cs[j - 1].owner == top ? c->cs[j - 1].path : path_of(c, top);
}

static __attribute__((noinline)) void enter_cold(uint64_t fn)
{
	pomp_thr *t = hook_thread();
	if (t && !excluded(t->cp, fn))
		enter_on(t, t->cp, fn);
}

/* The hooks: a function the filter left out returns at the first test
 * (cp_skip); a thread without call paths tests two words more and
 * returns. */
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn_, void *site)
{
	(void)site;
	uint64_t fn = (uint64_t)(uintptr_t)fn_;
	if (__builtin_expect(cp_skip[skip_slot(fn)] == fn, 0))
		return;
	pomp_thr *t = pomp_self_tls;
	if (__builtin_expect(t && t->cp, 1)) {
		if (!excluded(t->cp, fn))
			enter_on(t, t->cp, fn);
		return;
	}
	if (pomp_cp.on >= 0)
		enter_cold(fn);
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn_, void *site)
{
	(void)site;
	uint64_t fn = (uint64_t)(uintptr_t)fn_;
	if (__builtin_expect(cp_skip[skip_slot(fn)] == fn, 0))
		return;
	pomp_thr *t = pomp_self_tls;
	if (__builtin_expect(!t || !t->cp, 0))
		return;
	pomp_cpthr *c = t->cp;
	if (excluded(c, fn) && !(c->n && c->cs[c->n - 1].fn == fn))
		return;
	exit_on(t, c, fn);
}

/* ---------------------------------------------------------------------
 * Frames (core.h calls these with SLOW_CALLPATH).
 */
/* push_bare is push_frame on a thread with no call open: a program built
 * without --functions, sampled (light call paths), never has one, and
 * makes a path for nearly every task it runs (fib with a cutoff). */
static void push_bare(pomp_thr *t, pomp_cpthr *c, uint32_t base, uint64_t ts)
{
	int k = t->nfr - 1;
	if (base == CP_BELOW)
		base = k > 0 ? fpath_at(c, k - 1) : CP_ROOT;
	uint32_t node = child(c, base, frame_key(&t->fr[k]));
	set_fpath(t, c, k, node);
	charge(t, c, stamp(ts));
	visit(t, node);
	c->cur = node;
	c->evn = 0;
	if (t->fr[k].kind == FR_FORK)
		__atomic_store_n(&cur_loc(t)->cp_fork, node, __ATOMIC_RELEASE);
}

/* push_frame gives frame k, just pushed on t, the path of key below
 * base, adopting the calls begun since the last frame change if adopt. */
static void push_frame(pomp_thr *t, uint32_t base, int adopt, uint64_t ts)
{
	pomp_cpthr *c = t->cp;
	if (c->n == 0) {
		push_bare(t, c, base, ts);
		return;
	}
	int k = t->nfr - 1;
	ts = stamp(ts);
	int a = adopt && c->evn < c->n ? c->evn : c->n;
	int m = a;
	while (m > 0 && c->cs[m - 1].owner >= k)
		m--; /* stale: owned by frames dropped */
	if (m < a) {
		memmove(&c->cs[m], &c->cs[a], (size_t)(c->n - a) * sizeof *c->cs);
		c->n -= a - m;
		a = m;
	}
	if (a < c->n)
		EV(t, EV_FUNC_ADOPT, 0, ts, 1, (uint64_t)(c->n - a), 0, 0); /* before the task's begin record */
	if (base == CP_BELOW) /* below the frame under it */
		base = k > 0 ? path_of(c, k - 1) : CP_ROOT;
	uint32_t node = child(c, base, frame_key(&t->fr[k]));
	set_fpath(t, c, k, node);
	charge(t, c, ts);
	visit(t, node);
	for (int i = a; i < c->n; i++) {
		unvisit(&c->cs[i]); /* counted below the path it began on */
		node = child(c, node, c->cs[i].fn);
		c->cs[i].path = node;
		c->cs[i].owner = k;
		c->cs[i].loc = t->loc;
		visit(t, node);
	}
	c->cur = path_of(c, k);
	c->evn = c->n;
	if (t->fr[k].kind == FR_FORK)
		__atomic_store_n(&cur_loc(t)->cp_fork, fpath_at(c, k), __ATOMIC_RELEASE);
}

void pomp_cp_push(pomp_thr *t, uint64_t ts) { push_frame(t, CP_BELOW, 0, ts); }

/* pomp_cp_pop settles the path after the frame above t's top was popped
 * at ts (0: not read): calls it still owned (a task's wrappers, which
 * return after its end) go to the frame below. */
void pomp_cp_pop(pomp_thr *t, uint64_t ts)
{
	pomp_cpthr *c = t->cp;
	int k = t->nfr;
	for (int i = c->n - 1; i >= 0 && c->cs[i].owner >= k; i--)
		if (c->cs[i].owner == k)
			c->cs[i].owner = k - 1;
	settle(t, c, stamp(ts));
}

/* pomp_cp_implicit gives the implicit task just pushed on t its path,
 * below the fork of its team at location parent. */
void pomp_cp_implicit(pomp_thr *t, uint32_t parent, uint64_t ts)
{
	uint32_t base = __atomic_load_n(&pomp_g.locs[parent]->cp_fork, __ATOMIC_ACQUIRE);
	push_frame(t, base, 1, ts);
}

/* pomp_cp_closing notes that t's implicit task, frame i, ended its body
 * at ts: the closing barrier has no path. */
void pomp_cp_closing(pomp_thr *t, int i, uint64_t ts)
{
	pomp_cpthr *c = t->cp;
	set_fpath(t, c, i, CP_NONE);
	settle(t, c, ts);
	c->evn = c->n;
}

/* pomp_cp_created notes the path that creates task id, for its begin. */
void pomp_cp_created(pomp_thr *t, uint64_t id)
{
	pomp_cpthr *c = t->cp;
	pomp_cp_ring_put(c, id, path_of(c, t->nfr - 1));
	c->evn = c->n;
}

/* pomp_cp_task gives the explicit task id just pushed on t its path,
 * below its creation. */
void pomp_cp_task(pomp_thr *t, uint64_t id, uint64_t ts)
{
	uint32_t base = CP_ROOT;
	uint64_t p;
	if (pomp_cp_ring_take(id, &p))
		base = (uint32_t)p;
	else
		t->cp->lost++;
	push_frame(t, base, 1, ts);
}

/* pomp_cp_taskloop_enter notes the path that encounters taskloop in. */
void pomp_cp_taskloop_enter(pomp_thr *t, pomp_tlinst *in)
{
	__atomic_store_n(&in->cp_path, path_of(t->cp, t->nfr - 1), __ATOMIC_RELEASE);
}

/* pomp_cp_taskloop_task gives the taskloop task just pushed on t its
 * path, below the taskloop's encountering path. */
void pomp_cp_taskloop_task(pomp_thr *t, const pomp_tlinst *in, uint64_t seq, uint64_t ts)
{
	uint32_t base = CP_ROOT;
	if (in) {
		uint64_t p = __atomic_load_n(&in->cp_path, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&in->seq, __ATOMIC_ACQUIRE) == seq)
			base = (uint32_t)p;
		else
			t->cp->lost++;
	}
	push_frame(t, base, 1, ts);
}

/* pomp_cp_sync settles the path after frames changed at ts without
 * a push or pop of the hooks above (a task moved, frames dropped). */
void pomp_cp_sync(pomp_thr *t, uint64_t ts) { settle(t, t->cp, stamp(ts)); }

/* pomp_cp_flush charges the calling thread's current path up to ts, at
 * the end of the run. */
void pomp_cp_flush(pomp_thr *t, uint64_t ts)
{
	if (t && t->cp)
		charge(t, t->cp, ts);
}

/* ---------------------------------------------------------------------
 * Untied tasks that move: their paths and calls go with their frames.
 */
void pomp_cp_park(pomp_thr *t, pomp_parked *p, int i)
{
	pomp_cpthr *c = t->cp;
	pomp_cpparked *q = p->cp;
	if (!q && !(q = p->cp = calloc(1, sizeof *q)))
		abort();
	int nfr = t->nfr - i;
	int m = c->n;
	while (m > 0 && c->cs[m - 1].owner >= i)
		m--;
	int n = c->n - m;
	if (nfr > q->capfr) {
		free(q->fpath);
		q->capfr = nfr;
		if (!(q->fpath = malloc((size_t)nfr * sizeof *q->fpath)))
			abort();
	}
	if (n > q->cap) {
		free(q->cs);
		q->cap = n;
		if (!(q->cs = malloc((size_t)n * sizeof *q->cs)))
			abort();
	}
	for (int k = 0; k < nfr; k++)
		q->fpath[k] = fpath_at(c, i + k);
	for (int k = 0; k < n; k++) {
		q->cs[k] = c->cs[m + k];
		q->cs[k].owner -= i;
	}
	q->nfr = nfr;
	q->n = n;
	c->n = m;
	if (c->evn > c->n)
		c->evn = c->n;
}

/* pomp_cp_unpark brings p's paths and calls back on t, its frames now
 * from index base, at ts. */
void pomp_cp_unpark(pomp_thr *t, pomp_parked *p, int base, uint64_t ts)
{
	pomp_cpthr *c = t->cp;
	pomp_cpparked *q = p->cp;
	if (q) {
		for (int k = 0; k < q->nfr; k++)
			set_fpath(t, c, base + k, q->fpath[k]);
		while (c->n && c->cs[c->n - 1].owner >= base)
			c->n--;
		if (c->n + q->n > c->cap)
			grow_calls(c, c->n + q->n);
		for (int k = 0; k < q->n; k++) {
			c->cs[c->n] = q->cs[k];
			c->cs[c->n++].owner += base;
		}
		q->n = q->nfr = 0;
	}
	settle(t, c, stamp(ts));
	c->evn = c->n;
}

/* pomp_cp_totals sums what the threads counted of unmatched calls and
 * lost creations (for Go, at exit). */
void pomp_cp_totals(uint64_t *unmatched, uint64_t *lost)
{
	*unmatched = 0;
	*lost = 0;
	for (pomp_thr *t = __atomic_load_n(&pomp_g.threads, __ATOMIC_ACQUIRE); t; t = t->next) {
		if (t->cp) {
			*unmatched += t->cp->unmatched;
			*lost += t->cp->lost;
		}
	}
}

/* The filter that gopari cc --functions --filter embedded in the
 * program, if any (internal/wrapper). */
extern const char pomp_callpath_filter[] __attribute__((weak));
extern const char pomp_callpath_filter_name[] __attribute__((weak));

const char *pomp_cp_embedded_filter(const char **name)
{
	*name = pomp_callpath_filter_name;
	return pomp_callpath_filter;
}
