/*
 * cpring.c — how a task's begin finds the call path that created it.
 *
 * The creating thread writes each creation's id and path into its ring
 * (CP_RING slots, by the id's low bits), and the thread that begins the
 * task reads them there, as a sequence lock: id, path, id again. It
 * then notes the id it took in the slot's taken, so that the creator,
 * when the slot comes round again, can tell a task that began from one
 * still queued. A queued task's slot comes round when, before it
 * begins, its creator creates CP_RING more: the second task of a
 * recursive pair waits while the first one's subtree runs (fib's top,
 * BOTS' sort), and those tasks hold most of the run. The creator then
 * moves the entry to its spill, a small table under a lock that only
 * such tasks' creations and begins take, and the begin looks there
 * after the ring. A spill that is full drops its oldest entry; the
 * task's begin then counts a lost creation, and its path hangs below
 * the root, as every such task's did before the spill.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include "callpath.h"

#define CP_SPILL 1024 /* queued tasks per creating thread whose slot came round */

struct pomp_cpspill {
	pthread_mutex_t mu;
	int n;
	struct {
		uint64_t id, path;
	} e[CP_SPILL];
};

/* spill_put keeps entry (id, path) of c's ring, whose task has not
 * begun, in c's spill. */
static void spill_put(pomp_cpthr *c, uint64_t id, uint64_t path)
{
	pomp_cpspill *s = __atomic_load_n(&c->spill, __ATOMIC_ACQUIRE);
	if (!s) {
		if (!(s = calloc(1, sizeof *s)))
			return; /* no memory: the task's creation is lost */
		pthread_mutex_init(&s->mu, NULL);
		__atomic_store_n(&c->spill, s, __ATOMIC_RELEASE);
	}
	pthread_mutex_lock(&s->mu);
	int k = s->n;
	if (k == CP_SPILL) { /* full: the oldest entry goes */
		k = 0;
		for (int j = 1; j < s->n; j++)
			if (s->e[j].id < s->e[k].id)
				k = j;
	} else
		s->n++;
	s->e[k].id = id;
	s->e[k].path = path;
	pthread_mutex_unlock(&s->mu);
}

/* spill_take removes task id's entry from c's spill and returns its
 * path, or reports 0. */
static int spill_take(pomp_cpthr *c, uint64_t id, uint64_t *path)
{
	pomp_cpspill *s = __atomic_load_n(&c->spill, __ATOMIC_ACQUIRE);
	if (!s)
		return 0;
	int found = 0;
	pthread_mutex_lock(&s->mu);
	for (int j = 0; j < s->n; j++)
		if (s->e[j].id == id) {
			*path = s->e[j].path;
			s->e[j] = s->e[--s->n];
			found = 1;
			break;
		}
	pthread_mutex_unlock(&s->mu);
	return found;
}

/* pomp_cp_ring_put notes path as the creating path of task id, created
 * by the thread whose state c is. */
void pomp_cp_ring_put(pomp_cpthr *c, uint64_t id, uint32_t path)
{
	unsigned i = (unsigned)id & (CP_RING - 1);
	uint64_t old = c->ring[i].id; /* only this thread writes it */
	if (old && __atomic_load_n(&c->ring[i].taken, __ATOMIC_ACQUIRE) != old)
		spill_put(c, old, c->ring[i].path); /* before the slot changes: a begin that misses it looks there */
	__atomic_store_n(&c->ring[i].id, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->ring[i].path, path, __ATOMIC_RELEASE);
	__atomic_store_n(&c->ring[i].id, id, __ATOMIC_RELEASE);
}

/* pomp_cp_ring_take returns the creating path of task id in *path, as
 * its creator noted it, or reports 0 if the creator's thread no longer
 * knows it. */
int pomp_cp_ring_take(uint64_t id, uint64_t *path)
{
	pomp_cpthr *r = __atomic_load_n(&pomp_cp_threads[(id >> 32) & 1023], __ATOMIC_ACQUIRE);
	if (!r)
		return 0;
	unsigned i = (unsigned)id & (CP_RING - 1);
	if (__atomic_load_n(&r->ring[i].id, __ATOMIC_ACQUIRE) == id) {
		uint64_t p = __atomic_load_n(&r->ring[i].path, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&r->ring[i].id, __ATOMIC_ACQUIRE) == id) {
			__atomic_store_n(&r->ring[i].taken, id, __ATOMIC_RELEASE);
			*path = p;
			return 1;
		}
	}
	return spill_take(r, id, path);
}

/* pomp_cp_spill_after_fork empties the spill of c, the state of the
 * thread that forked, in the child: its lock may have been held by a
 * thread the fork left behind, and its entries are the parent's tasks. */
void pomp_cp_spill_after_fork(pomp_cpthr *c)
{
	pomp_cpspill *s = c->spill;
	if (s) {
		pthread_mutex_init(&s->mu, NULL);
		s->n = 0;
	}
}
