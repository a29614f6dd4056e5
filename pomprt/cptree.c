/*
 * cptree.c — the call-path tree's nodes and its (parent, key) -> node
 * hash, shared by every thread under pomp_cp_lock (callpath.c keeps each
 * thread's cache of lookups in front of it).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "callpath.h"

/* pomp_cp_lock takes the tree's lock: a spin lock, since a thread holds
 * it only to append a node (a probe of the hash and three stores; now
 * and then the hash doubled), which a task program does for nearly every
 * task it creates when each makes a path of its own (fib with a cutoff:
 * 8,190 tasks, 12,290 nodes), and an uncontended pthread mutex took 57
 * instructions a node to lock and unlock. A waiter yields its core after
 * a while, in case the holder was preempted. */
int pomp_cp_lock(void)
{
	int spins = 0;
	while (__atomic_exchange_n(&pomp_cp.lock, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&pomp_cp.lock, __ATOMIC_RELAXED)) {
			if (++spins < 1000) {
				__builtin_ia32_pause();
			} else {
				sched_yield();
				spins = 0;
			}
		}
	}
	return 1;
}

int pomp_cp_unlock(void)
{
	__atomic_store_n(&pomp_cp.lock, 0, __ATOMIC_RELEASE);
	return 1;
}

/* HASH_FIRST is the hash's first size in slots: 128 KiB, 32 pages that
 * a run's first nodes touch at random. It starts below the largest tree's
 * (1 MiB by default), whose every page a short run would fault in, and
 * above what a task program makes in a short run: doubling it from 1,024
 * slots rehashed 24,000 nodes by the time fib with a cutoff had made its
 * 12,290 (half of the tree's instructions). */
#define HASH_FIRST 32768

/* hash_alloc returns a zeroed table of n slots whose pages are all in
 * memory and writable. A probe reads a slot before it writes it: on a
 * page first touched by that read, the kernel maps its shared zero page,
 * and the write then replaces it and flushes the other processors' TLBs
 * by interrupt (perf, fib with a cutoff sampled: the run's 32 pages of
 * hash cost more than a third of a millisecond that way on the AMD EPYC
 * guest). NULL if there is no memory. */
static uint32_t *hash_alloc(uint64_t n)
{
	void *a = mmap(NULL, n * sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return a == MAP_FAILED ? NULL : a;
}

static void hash_free(uint32_t *a, uint64_t n)
{
	if (a)
		munmap(a, n * sizeof(uint32_t));
}

/* grow_hash doubles the hash table (pomp_cp_lock held). 0 if there was
 * no memory. */
static int grow_hash(void)
{
	uint64_t h = 2 * ((uint64_t)pomp_cp.hmask + 1);
	uint32_t *a = hash_alloc(h);
	if (!a)
		return 0;
	uint32_t mask = (uint32_t)(h - 1);
	for (uint32_t c = 2; c < pomp_cp.n; c++) {
		unsigned i = hash2(pomp_cp.parent[c], pomp_cp.key[c]) & mask;
		while (a[i])
			i = (i + 1) & mask;
		a[i] = c;
	}
	hash_free(pomp_cp.hash, (uint64_t)pomp_cp.hmask + 1);
	pomp_cp.hash = a;
	pomp_cp.hmask = mask;
	return 1;
}

/* pomp_cp_child_locked returns the child of parent by key (h: their
 * hash2), appending it if the tree has room; pomp_cp_lock is held. */
uint32_t pomp_cp_child_locked(uint32_t parent, uint64_t key, unsigned h)
{
	if (2 * ((uint64_t)pomp_cp.n + 1) > (uint64_t)pomp_cp.hmask + 1 && (uint64_t)pomp_cp.hmask + 1 < pomp_cp.hmax && !grow_hash())
		return CP_OVERFLOW;
	unsigned i = h & pomp_cp.hmask;
	for (;; i = (i + 1) & pomp_cp.hmask) {
		uint32_t c = pomp_cp.hash[i];
		if (c == 0)
			break;
		if (pomp_cp.parent[c] == parent && pomp_cp.key[c] == key)
			return c;
	}
	if (pomp_cp.n >= pomp_cp.max)
		return CP_OVERFLOW;
	uint32_t c = pomp_cp.n;
	pomp_cp.parent[c] = parent;
	pomp_cp.key[c] = key;
	pomp_cp.hash[i] = c;
	__atomic_store_n(&pomp_cp.n, c + 1, __ATOMIC_RELEASE);
	return c;
}

/* pomp_cp_tree_init allocates the tree (untouched pages cost nothing); it
 * returns 0 if GOPARI_CALLPATH_NODES asks for more than the memory. */
int pomp_cp_tree_init(void)
{
	uint64_t max = pomp_env_value(ENV_CALLPATH_NODES);
	pomp_cp.max = (max ? (uint32_t)max : CP_DEFAULT_NODES) + 1; /* the overflow node is extra */
	if (pomp_cp.max < 2)
		pomp_cp.max = 2;
	uint64_t h = 16;
	while (h < 2 * (uint64_t)pomp_cp.max)
		h *= 2;
	pomp_cp.hmax = h;
	if (h > HASH_FIRST)
		h = HASH_FIRST; /* grow_hash doubles it as the tree grows */
	pomp_cp.parent = calloc(pomp_cp.max, sizeof *pomp_cp.parent);
	pomp_cp.key = calloc(pomp_cp.max, sizeof *pomp_cp.key);
	pomp_cp.hash = pomp_cp.hmax <= UINT32_MAX ? hash_alloc(h) : NULL;
	if (!pomp_cp.parent || !pomp_cp.key || !pomp_cp.hash) {
		free(pomp_cp.parent);
		free(pomp_cp.key);
		hash_free(pomp_cp.hash, h);
		fprintf(stderr, "gopari: GOPARI_CALLPATH_NODES=%llu: no memory for so many call paths; none are recorded\n",
		        (unsigned long long)max);
		return 0;
	}
	pomp_cp.hmask = (uint32_t)(h - 1);
	pomp_cp.parent[0] = UINT32_MAX;
	pomp_cp.parent[1] = CP_ROOT;
	pomp_cp.key[1] = UINT64_MAX;
	pomp_cp.n = 2;
	return 1;
}
