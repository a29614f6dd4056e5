/*
 * callpath.h — the call paths' per-thread state, shared by callpath.c
 * (the hooks and the tree) and callcost.c (what a call costs).
 */
#ifndef POMP_CALLPATH_H
#define POMP_CALLPATH_H

#include "core.h"

#define CP_CACHE 1024 /* child lookups per thread */
#define CP_FCACHE 512 /* filter decisions per thread */
#define CP_SKIP 512   /* functions left out, per thread: the hooks' first test */
#define CP_RING 4096  /* creations per thread whose path a task's begin finds */
#define CP_DEFAULT_NODES 100000
#define CP_BELOW (CP_NONE - 1) /* push_frame: below the path of the frame under it */

/* A function call in progress: its path, and the frame that owned the
 * top of the stack when it began. */
typedef struct pomp_cpcall {
	uint64_t fn;
	uint32_t path;
	int32_t owner;
	uint32_t loc; /* where its visit was counted */
	uint32_t pad;
} pomp_cpcall;

typedef struct pomp_cpspill pomp_cpspill; /* cpring.c */

typedef struct pomp_cpthr {
	uint32_t cur;  /* the path time is charged to */
	uint64_t last; /* since when */
	pomp_cpcall *cs;
	int n, cap;
	int evn; /* calls open at the last frame change: those above are wrappers */
	uint32_t *fpath;
	int capf;
	uint64_t unmatched, lost;
	struct {
		uint64_t key;
		uint32_t parent, child;
	} cache[CP_CACHE];
	struct {
		uint64_t fn;
		uint32_t gen;
		int out;
	} fcache[CP_FCACHE];
	struct {
		uint64_t id;
		uint64_t path;
		uint64_t taken; /* the id a begin took from the slot */
		uint64_t pad;
	} ring[CP_RING];
	pomp_cpspill *spill; /* creations whose slot came round before their task began */
} pomp_cpthr;

/* Every thread's state, by the thread index of its task ids. */
extern pomp_cpthr *pomp_cp_threads[1024];

/* The creations' ring (cpring.c). */
void pomp_cp_ring_put(pomp_cpthr *c, uint64_t id, uint32_t path);
int pomp_cp_ring_take(uint64_t id, uint64_t *path);
void pomp_cp_spill_after_fork(pomp_cpthr *c);

/* The untied task's part of the call paths while it is parked: its
 * frames' paths and its calls, owners relative to its task frame. */
typedef struct pomp_cpparked {
	int nfr, n, capfr, cap;
	uint32_t *fpath;
	pomp_cpcall *cs;
} pomp_cpparked;

static inline unsigned hash2(uint32_t parent, uint64_t key)
{
	uint64_t h = (key ^ ((uint64_t)parent << 40) ^ parent) * 0x9e3779b97f4a7c15ull;
	return (unsigned)(h >> 32);
}

/* The tree (cptree.c): the child of parent by key (h: hash2 of both),
 * appended if the tree has room (pomp_cp_lock held); and its
 * allocation, 0 without memory. */
uint32_t pomp_cp_child_locked(uint32_t parent, uint64_t key, unsigned h);
int pomp_cp_tree_init(void);

/* Call paths turned on by sampling alone (callpath.c): no path time. */
int pomp_cp_is_light(void);

#endif
