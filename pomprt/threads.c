/*
 * threads.c — what the runtime registers: the regions of every
 * instrumented unit, the OS threads (each with its frame stack) and the
 * locations of the team tree, each with its statistics per region.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

/* The state lean_self returns for a thread that may not take the fast
 * paths untraced: its cur_id matches no task handle (they are below
 * 2^63), and it is slow besides. */
static pomp_thr nothr = {.cur_id = ~0ull, .slow = SLOW_RECORD};

/* The public thread state of pomp.h, with the runtime's pointers
 * (lean_self, stream_self), and the mode. */
POMP_TLS POMP_Thread pomp_thread = {.rt_lean = &nothr, .rt_stream = &nothr};
int pomp_mode = POMP_MODE_OFF;
int pomp_iterations; /* pomp.h: set by pomp_ev_configure when there is a stream */

pomp_rt pomp_g = {.mu = PTHREAD_MUTEX_INITIALIZER};

__thread pomp_thr *pomp_self_tls __attribute__((tls_model("initial-exec")));


/* lean_check points the calling thread's lean_self and stream_self at
 * its state, or away from it: a thread in record mode or with call paths
 * takes neither; one with a stream, the second. */
static void lean_check(pomp_thr *t)
{
	pomp_thread.rt_lean = !t->slow && !t->ev.mask ? t : &nothr;
	pomp_thread.rt_stream = !t->slow && t->ev.mask ? t : &nothr;
}

/* pomp_thread_slow sends the events of t, the calling thread, to the
 * full paths from now on, for why (SLOW_*). */
void pomp_thread_slow(pomp_thr *t, uint8_t why)
{
	t->slow |= why;
	if (t == pomp_self_tls)
		lean_check(t);
}
/* ---------------------------------------------------------------------
 * Registration of regions, threads and locations.
 */
static void grow_stats(pomp_loc *l, uint32_t need);

/* egen_next makes every cached edge counter of t stale: a new
 * generation, and after 2^32 of them, entries that no key matches. */
static inline void egen_next(pomp_thr *t)
{
	t->egen += EGEN_ONE;
	if (t->egen == 0) {
		memset(t->ecache, 0, sizeof t->ecache);
		t->egen = EGEN_ONE; /* a key of generation 0 matches no parent */
	}
}

/* region_flags derives the runtime's flags of a region from its table
 * entry. */
static uint16_t region_flags(const POMP_Region *r)
{
	uint16_t f = 0;
	switch (r->kind) {
	case POMP_ORDERED:
		if ((r->flags & POMP_FLAG_DEPEND) && r->begin_line == r->end_line)
			f |= RF_STANDALONE | (pomp_g.ordered_count ? RF_COUNT : 0);
		break;
	case POMP_TASKLOOP:
		f |= RF_SCHED | RF_EXITHOOK | RF_GRAINEV; /* its executions name its tasks */
		if (r->clauses && strstr(r->clauses, "nogroup"))
			f |= RF_NOGROUP;
		break;
	case POMP_TASKWAIT:
		f |= RF_SCHED | RF_POINT | RF_GRAINEV;
		break;
	case POMP_TASKYIELD:
	case POMP_BARRIER:
		f |= RF_SCHED | RF_POINT;
		break;
	case POMP_TASKGROUP:
		f |= RF_EXITHOOK | RF_GRAINEV; /* the wait follows the end of its body */
		break;
	case POMP_FOR:
		/* Its executions delimit its chunks, and name the tasks its
		 * iterations create (or say that they cannot be named). */
		f |= RF_GRAINEV;
		break;
	case POMP_SINGLE:
	case POMP_SECTIONS:
		/* Which thread runs a single's body or a section varies: the
		 * tasks created there are named by the construct and section. */
		f |= RF_GRAINEV | RF_GRAINBODY;
		break;
	}
	return f;
}

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
		POMP_Region **regions = realloc(pomp_g.regions, cap * sizeof *regions);
		/* The flags and spans are read without the lock: the old arrays
		 * stay. */
		uint16_t *rflags = calloc(cap, sizeof *rflags);
		uint64_t *rspan = calloc(cap, sizeof *rspan);
		if (!regions || !rflags || !rspan)
			abort();
		if (pomp_g.rflags) {
			memcpy(rflags, pomp_g.rflags, pomp_g.capregions * sizeof *rflags);
			memcpy(rspan, pomp_g.rspan, pomp_g.capregions * sizeof *rspan);
		}
		pomp_g.regions = regions;
		pomp_g.rspan = rspan;
		pomp_g.rflags = rflags;
		pomp_g.capregions = cap;
	}
	for (uint32_t i = 0; i < u->n_regions; i++) {
		POMP_Region *r = &u->regions[i];
		r->id = ++pomp_g.nregions;
		pomp_g.regions[r->id] = r;
		pomp_g.rflags[r->id] = region_flags(r);
	}
	u->next = pomp_g.units;
	pomp_g.units = u;
	pthread_mutex_unlock(&pomp_g.mu);
}

pomp_thr *pomp_register_thread(void)
{
	pomp_thr *t = calloc(1, sizeof *t);
	if (!t)
		abort();
	pthread_mutex_lock(&pomp_g.mu);
	t->index = pomp_g.next_index++;
	t->next = pomp_g.threads;
	pomp_g.threads = t;
	pomp_g.nthreads++;
	pthread_mutex_unlock(&pomp_g.mu);
	pomp_self_tls = t;
	pomp_thread.next = ((POMP_Task_handle)t->index << 32) | 1;
	if (t->index != 0 && pomp_thread.current == POMP_ROOT_TASK)
		pomp_thread.current = (POMP_Task_handle)t->index << 32; /* its own initial task */
	/* The bottom of the stack: the thread's initial task, measured so that
	 * the regions it runs outside parallel regions are. */
	pomp_frame *f = push(t);
	memset(f, 0, sizeof *f);
	f->kind = FR_ROOT;
	f->flags = FL_MEASURED | FL_TS;
	f->id = pomp_thread.current;
	f->prev_task = -1;
	f->last = now();
	if (t->index == 0 && pomp_g.tick0 && pomp_g.tick0 <= f->last)
		f->last = pomp_g.tick0; /* the initial thread's initial task began with the run */
	t->task = 0;
	t->cur_id = f->id;
	t->egen = EGEN_ONE;
	t->tracing = pomp_g.ev_mask != 0;
	t->slow = pomp_g.mode == POMP_MODE_RECORD ? SLOW_RECORD : 0;
	pomp_ev_thread(t, t->index);
	pomp_cp_thread_new(t);
	pomp_sample_thread_new();
	lean_check(t);
	return t;
}

pomp_thr *pomp_self(void) { return self(); }

/* pomp_self_if_any returns the calling thread's state, or NULL for a
 * thread that never called the runtime: it registers nothing. */
pomp_thr *pomp_self_if_any(void) { return pomp_self_tls; }

POMP_Task_handle pomp_rt_thread_new(void)
{
	if (!pomp_self_tls) {
		pomp_register_thread();
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

void pomp_rt_task_begin_new(void) { pomp_thread.current = POMP_New_task_id(); }

/* new_loc creates a location; the caller holds pomp_g.mu. */
static uint32_t new_loc(uint32_t parent, uint32_t num, uint32_t level, uint32_t os)
{
	if (pomp_g.nlocs == pomp_g.caplocs) {
		uint32_t cap = pomp_g.caplocs ? 2 * pomp_g.caplocs : 64;
		pomp_loc **l = malloc(cap * sizeof *l);
		if (!l)
			abort();
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
	if (parent != UINT32_MAX) {
		pomp_loc *p = pomp_g.locs[parent];
		if (num >= p->nchildren) {
			uint32_t n = num + 1 > 2 * p->nchildren ? num + 1 : 2 * p->nchildren;
			uint32_t *c = malloc(n * sizeof *c);
			if (!c)
				abort();
			for (uint32_t i = 0; i < n; i++)
				c[i] = i < p->nchildren ? p->children[i] : UINT32_MAX;
			/* The old array leaks: a master may be reading it. */
			p->children = c;
			p->nchildren = n;
		}
		p->children[num] = l->index;
	}
	return l->index;
}

/* root_loc returns the location of an initial thread. */
uint32_t pomp_root_loc(pomp_thr *t)
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

/* child_loc returns the location of thread num of the teams forked by
 * location parent. */
uint32_t pomp_child_loc(pomp_thr *t, uint32_t parent, uint32_t num)
{
	if (t->has_cache && t->cache_parent == parent && t->cache_num == num)
		return t->cache_loc;
	pthread_mutex_lock(&pomp_g.mu);
	pomp_loc *p = pomp_g.locs[parent];
	uint32_t found = num < p->nchildren ? p->children[num] : UINT32_MAX;
	if (found == UINT32_MAX)
		found = new_loc(parent, num, p->level + 1, t->index);
	pthread_mutex_unlock(&pomp_g.mu);
	t->cache_parent = parent;
	t->cache_num = num;
	t->cache_loc = found;
	t->has_cache = 1;
	return found;
}

/* set_loc makes location i current for thread t. */
void pomp_set_loc(pomp_thr *t, uint32_t i)
{
	pomp_loc *l = pomp_g.locs[i];
	if (t->loc != i)
		egen_next(t); /* the cached edge counters are another location's */
	t->ev.loc = i;
	if (t->ev.mask & (1u << EV_LOC))
		ev_record(&t->ev, t->index, EV_LOC, 0, now(), 1, i, 0, 0);
	t->loc = i;
	t->has_loc = 1;
	t->stat = l->stat;
	t->nstat = l->nstat;
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

__attribute__((noinline)) pomp_stat *pomp_stat_slow(pomp_thr *t, uint32_t region)
{
	pomp_loc *l = cur_loc(t);
	if (region >= l->nstat)
		grow_stats(l, region + 1);
	t->stat = l->stat;
	t->nstat = l->nstat;
	return &l->stat[region];
}

pomp_stat *pomp_stat_at(pomp_thr *t, uint32_t region) { return stat_at(t, region); }

void pomp_frames_restart(pomp_thr *t, uint64_t tick)
{
	for (int k = 0; k < t->nfr; k++) {
		pomp_frame *f = &t->fr[k];
		f->start = f->last = tick;
		f->excl = f->est = f->exec = 0;
		f->susp = 0;
	}
	/* The counts of open frames start empty with the statistics: count
	 * the open phases again, at the location each was opened at. */
	uint32_t loc = t->has_loc ? t->loc : 0;
	for (int k = t->nfr - 1; k >= 0; k--) {
		pomp_frame *f = &t->fr[k];
		if (f->kind == FR_IMPLICIT)
			loc = f->saved_loc; /* frames below were opened at the encountering location */
		if ((f->kind == FR_PHASE || f->kind == FR_FORK) && t->has_loc && loc < pomp_g.nlocs) {
			pomp_loc *l = pomp_g.locs[loc];
			if (f->region < l->nstat)
				l->stat[f->region].active[f->phase]++;
		}
	}
	t->creating = 0;
	egen_next(t);
}

/* ---------------------------------------------------------------------
 * Statistics helpers.
 */
/* edge_slow counts a child of region child created by a task of region
 * parent in s, and caches the counter in slot h. */
__attribute__((noinline)) void pomp_edge_slow(pomp_thr *t, pomp_stat *s, uint32_t parent, uint32_t child, unsigned h)
{
	uint32_t i = 0;
	while (i < s->nedges && s->edges[i].parent != parent)
		i++;
	if (i == s->nedges) {
		if (s->nedges == s->capedges) {
			uint32_t cap = s->capedges ? 2 * s->capedges : 4;
			pomp_edge *e = malloc(cap * sizeof *e);
			if (!e)
				abort();
			if (s->nedges)
				memcpy(e, s->edges, s->nedges * sizeof *e);
			/* The old array leaks: a finalizer may be reading it. */
			s->edges = e;
			s->capedges = cap;
			egen_next(t); /* cached counters may point into the old array */
		}
		s->edges[i] = (pomp_edge){.parent = parent, .count = 0};
		s->nedges++;
	}
	s->edges[i].count++;
	t->ecache[h].key = parent | t->egen;
	t->ecache[h].child = child;
	t->ecache[h].count = &s->edges[i].count;
}

/* ---------------------------------------------------------------------
 * The frame stack.
 */
__attribute__((noinline)) void pomp_grow_frames(pomp_thr *t)
{
	int cap = t->capfr ? 2 * t->capfr : 32;
	pomp_frame *f = realloc(t->fr, cap * sizeof *f);
	if (!f)
		abort();
	t->fr = f;
	t->capfr = cap;
}
