/*
 * fork.c — fork() without exec: the handlers that keep the runtime's
 * state consistent across it and give the child a clean start.
 * snapshot.c hands the child's measurements to the root.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "lifecycle.h"
#include "callpath.h"

/* ---------------------------------------------------------------------
 * fork() without exec. The handlers keep the runtime's state consistent
 * across the fork (pomp_g.mu is held over it) and give the child a clean
 * start: its profile covers what it does after the fork, at the
 * locations of the thread that forked (the only thread a child has).
 *
 * Runtime state that a forked child must not inherit (per-thread
 * buffers, open files, counters) is reset in reset_after_fork.
 */
static void fork_prepare(void)
{
	/* park_mu first: a thread holding it may take mu (switch.c). */
	pthread_mutex_lock(&pomp_g.park_mu);
	pthread_mutex_lock(&pomp_g.mu);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&pomp_g.mu);
	pthread_mutex_unlock(&pomp_g.park_mu);
}

/* reset_after_fork zeroes the statistics, keeps only the locations of
 * the forking thread (the one it is at and those above it in the team
 * tree, numbered anew) and forgets the threads that the fork left
 * behind. Open frames keep counting from now. */
static void reset_after_fork(void)
{
	pomp_thr *t = pomp_self();
	uint64_t tick = pomp_now();
	uint32_t n = pomp_g.nlocs;
	uint32_t *map = malloc((n ? n : 1) * sizeof *map);
	if (!map)
		abort();
	for (uint32_t i = 0; i < n; i++)
		map[i] = UINT32_MAX;
	/* Mark the current location, those the open frames return to, and
	 * their ancestors. */
	for (int k = -1; k < t->nfr; k++) {
		uint32_t i;
		if (k < 0) {
			if (!t->has_loc)
				continue;
			i = t->loc;
		} else if (t->fr[k].kind == FR_FORK || t->fr[k].kind == FR_IMPLICIT) {
			i = t->fr[k].saved_loc;
		} else {
			continue;
		}
		while (i < n && map[i] == UINT32_MAX) {
			map[i] = 0;
			if (pomp_g.locs[i]->parent == i)
				break;
			i = pomp_g.locs[i]->parent;
		}
	}
	uint32_t kept = 0;
	for (uint32_t i = 0; i < n; i++)
		if (map[i] != UINT32_MAX)
			map[i] = kept++;
	kept = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (map[i] == UINT32_MAX)
			continue;
		pomp_loc *l = pomp_g.locs[i];
		l->index = map[i];
		l->parent = map[l->parent] == UINT32_MAX ? l->index : map[l->parent];
		l->implicit_tasks = 0;
		/* The members of the teams forked here, renumbered: the child's
		 * own teams find theirs through this table. A member the fork
		 * left behind gets a fresh location when a team needs it. */
		for (uint32_t c = 0; c < l->nchildren; c++)
			if (l->children[c] != UINT32_MAX)
				l->children[c] = l->children[c] < n ? map[l->children[c]] : UINT32_MAX;
		/* A closing-barrier wait of the parent's team, not yet added. */
		l->close_settle = 0;
		l->close_wait = 0;
		memset(l->stat, 0, l->nstat * sizeof *l->stat);
		for (uint32_t s = 0; s < l->nstat; s++) {
			l->stat[s].create_min = UINT64_MAX;
			l->stat[s].exec_min = UINT64_MAX;
		}
		pomp_g.locs[kept++] = l;
	}
	pomp_g.nlocs = kept;
	if (t->has_loc && t->loc < n)
		t->loc = map[t->loc];
	t->has_cache = 0;
	for (int k = 0; k < t->nfr; k++) {
		pomp_frame *f = &t->fr[k];
		if ((f->kind == FR_FORK || f->kind == FR_IMPLICIT) && f->saved_loc < n)
			f->saved_loc = map[f->saved_loc] == UINT32_MAX ? t->loc : map[f->saved_loc];
	}
	pomp_frames_restart(t, tick);
	pomp_ev_after_fork(t);
	if (t->cp)
		pomp_cp_spill_after_fork(t->cp);
	free(map);
	t->unmatched = 0;
	t->nids = 0;
	t->next = NULL;
	pomp_g.threads = t;
	pomp_g.nthreads = 1;
	pomp_clock_pair(&pomp_g.tick0, &pomp_g.ns0);
}

static void fork_child(void)
{
	pthread_mutex_init(&pomp_g.mu, NULL);
	pthread_mutex_init(&pomp_g.park_mu, NULL);
	pomp_fork_pid = getpid();
	if (pomp_fork_level < POMP_FORK_CHAIN)
		pomp_fork_chain[pomp_fork_level] = (int)pomp_fork_pid;
	pomp_fork_level++;
	if (pomp_ctl[0] >= 0) {
		close(pomp_ctl[0]); /* only the root reads it */
		pomp_ctl[0] = -1;
	}
	/* Forked while the parent was ending: the child writes nothing. */
	if (pomp_fin_state != FIN_NONE)
		pomp_fin_state = FIN_DONE;
	pomp_signals_after_fork();
	reset_after_fork();
}

int pomp_fork_depth(void) { return pomp_fork_level; }

/* pomp_fork_watch installs the fork handlers. */
void pomp_fork_watch(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }
