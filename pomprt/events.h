/*
 * events.h — the event stream of docs/events.md, as the runtime writes it:
 * record types, the per-thread buffer, and the inline functions that
 * append a record. events.c writes full buffers as blocks.
 *
 * A thread appends records to a buffer of its own, with plain stores: no
 * lock or atomic per event. A full buffer becomes one block, written by
 * the owning thread with one write(2) to its own file, so memory stays
 * bounded whatever the number of events. What cannot be written (the
 * GOPARI_TRACE_MAX_BYTES budget reached) is counted, and the next block
 * that is written starts with a DROPPED record saying how many records
 * are missing there. A write that fails (a full disk, a file size limit)
 * stops the stream: every thread frees its buffer at its next block and
 * from then on only counts its records, a space held back since the
 * first block (events/space-for-profile.reserve) makes room for
 * profile.json, and profile.json says where the stream stopped and how
 * many records it dropped. Beside the files, events/stream.json says what
 * the records of every complete block refer to, for a run killed before
 * it writes its profile (events.c, info_sync; docs/events.md).
 */
#ifndef POMP_EVENTS_H
#define POMP_EVENTS_H

#include <stdint.h>

#define EV_FILE_MAGIC "GOPARIEV"
#define EV_BLOCK_MAGIC "BLK1"
/* The file holding the space kept for profile.json, in the events
 * directory; its name says what it is to whoever finds it after a run
 * killed by SIGKILL. */
#define EV_RESERVE_FILE "space-for-profile.reserve"

enum {
	EV_VERSION = 7, /* 2: CHUNK_NEXT records; 3: grains mode records worksharing and taskloop constructs, a section's number;
	                   4: CREATE_BEGIN's word 2, the creating loop iteration;
	                   5: FUNC_ENTER, FUNC_EXIT and FUNC_ADOPT, the calls of functions built with --functions (trace mode);
	                   6: the short task records, without the IDs that the block's earlier records name;
	                   7: TINY_TASK, an UNDEFERRED_TASK of short steps in 8 bytes, TASK_BEGIN_OWN, CREATE_QUEUED and
	                      TASK_END_BEFORE */
	EV_FILE_HEADER = 32, /* bytes */
	EV_BLOCK_HEADER = 16
};

/* Record types (docs/events.md). */
enum {
	EV_TIME = 1,
	EV_LOC = 2,
	EV_DROPPED = 3,
	EV_ENTER = 8, /* + phase: ENTER_CONSTRUCT 8, ENTER_BODY 9, ENTER_BARRIER 10, ENTER_WAIT 11 */
	EV_ENTER_BODY = 9,
	EV_ENTER_BARRIER = 10,
	EV_ENTER_WAIT = 11,
	EV_EXIT = 12, /* + phase: EXIT_CONSTRUCT 12 ... EXIT_WAIT 15 */
	EV_EXIT_BODY = 13,
	EV_EXIT_BARRIER = 14,
	EV_EXIT_WAIT = 15,
	EV_FORK = 16,
	EV_JOIN = 17,
	EV_IMPLICIT_BEGIN = 18,
	EV_IMPLICIT_END = 19,
	EV_CREATE_BEGIN = 21,
	EV_CREATE_END = 22,
	EV_TASK_BEGIN = 23,
	EV_TASK_END = 24,
	EV_RESUME = 25,
	EV_TASKLOOP_BEGIN = 26,
	EV_TASKLOOP_END = 27,
	EV_CHUNK_BEGIN = 28,
	EV_CHUNK_END = 29,
	EV_LOCK_ACQUIRED = 30,
	EV_LOCK_RELEASED = 31,
	/* A chunk's end and its thread's next chunk's beginning in one
	 * record, written under the CHUNK_BEGIN bit of the mask. */
	EV_CHUNK_NEXT = 32,
	EV_CHUNK_NEXT_STATIC = 33,
	EV_CHUNK_NEXT_DYNAMIC = 34,
	/* Version 5, trace mode with call paths (callpath.c): a measured
	 * function call begins or ends (payload: the function's address), and
	 * the calls that the task beginning next takes as its own (payload:
	 * how many of the innermost open calls), written just before its
	 * begin record. */
	EV_FUNC_ENTER = 35,
	EV_FUNC_EXIT = 36,
	EV_FUNC_ADOPT = 37,
	/* Version 6: the task records in short, without the task IDs that
	 * the block's earlier records name (ev_task_* below; docs/events.md):
	 * a CREATE_BEGIN of the task after the block's last created one
	 * (payload: the creating iteration, if known), a CREATE_END of the
	 * last created one, a TASK_BEGIN of the last created one whose parent
	 * is the last begun one's, a TASK_END of the last begun one, and that
	 * TASK_END and the CREATE_END of the same task at the same time. */
	EV_CREATE_BEGIN_NEXT = 38,
	EV_CREATE_END_LAST = 39,
	EV_TASK_BEGIN_LAST = 40,
	EV_TASK_END_LAST = 41,
	EV_TASK_END_CREATED = 42,
	/* A task that its thread runs as it creates it (undeferred), in one
	 * record of 16 bytes: its CREATE_BEGIN_NEXT and TASK_BEGIN_LAST
	 * (payload: the ticks from one to the other in bits 0-31), its
	 * TASK_END_LAST too (the ticks from the begin in bits 32-63), and the
	 * CREATE_END at its end. Each grows from the one before it. */
	EV_UNDEFERRED_BEGIN = 43,
	EV_UNDEFERRED_END = 44,
	EV_UNDEFERRED_TASK = 45,
	/* A TASK_BEGIN (payload: the task's ID) whose parent is the last
	 * begun one's: a task run by another thread than its creator, or
	 * after its siblings. */
	EV_TASK_BEGIN_PARENT = 46,
	/* Version 7: an UNDEFERRED_TASK whose steps are short, without
	 * payload: the ticks to its creation in bits 32-41 of the header,
	 * from there to its begin in bits 42-51, from there to its end in
	 * bits 52-63. Most tiny tasks fit (ticks of tens to hundreds). */
	EV_TINY_TASK = 47,
	/* Version 7: a TASK_BEGIN of a task that this thread created, whose
	 * parent its creator created too (a task begun after its siblings'
	 * subtrees, or by a taskwait): payload the ID's low 32 bits, and the
	 * ID less the parent's in bits 32-63; the ID's high 32 bits are the
	 * block's last created task's. */
	EV_TASK_BEGIN_OWN = 48,
	/* Version 7: a CREATE_BEGIN_NEXT without payload and the CREATE_END
	 * of its task that follows it (a task queued), in one header: the
	 * ticks to the begin in bits 32-51, from there to the end in bits
	 * 52-63. */
	EV_CREATE_QUEUED = 49,
	/* Version 7: a TASK_END of the task begun k before the last begun
	 * one, of the same thread's IDs (a task that ends after its children
	 * began), without payload: the ticks since the last record in bits
	 * 32-51, k (1 to 4095) in bits 52-63. */
	EV_TASK_END_BEFORE = 50
};

/* The records masks: which types a mode records. */
#define EV_MASK_TRACE (0xfffffffeull | (1ull << EV_FUNC_ENTER) | (1ull << EV_FUNC_EXIT) | (1ull << EV_FUNC_ADOPT))
#define EV_MASK_GRAINS                                                                                              \
	((1ull << EV_TIME) | (1ull << EV_LOC) | (1ull << EV_DROPPED) | (1ull << EV_FORK) | (1ull << EV_JOIN) |           \
	 (1ull << EV_IMPLICIT_BEGIN) | (1ull << EV_IMPLICIT_END) | (1ull << EV_CREATE_BEGIN) | (1ull << EV_CREATE_END) | \
	 (1ull << EV_TASK_BEGIN) | (1ull << EV_TASK_END) | (1ull << EV_RESUME) | (1ull << EV_TASKLOOP_BEGIN) |           \
	 (1ull << EV_TASKLOOP_END) | (1ull << EV_CHUNK_BEGIN) | (1ull << EV_CHUNK_END))

/* The region phases that grains mode records, of the regions flagged
 * RF_GRAINEV only (rt.h): construct and wait phases, and body phases of
 * the regions flagged RF_GRAINBODY. */
#define EV_MASK_PHASES                                                                                         \
	((1ull << EV_ENTER) | (1ull << EV_ENTER_BODY) | (1ull << EV_ENTER_WAIT) | (1ull << EV_EXIT) | (1ull << EV_EXIT_BODY) | \
	 (1ull << EV_EXIT_WAIT))

/* A thread's stream state; part of pomp_thr. */
typedef struct pomp_evbuf {
	uint64_t mask;  /* types recorded; 0 when not recording */
	uint64_t *pos;  /* where the next record goes */
	uint64_t *end;  /* the end of the buffer */
	uint64_t last;  /* the running timestamp of the block */
	uint64_t *buf;  /* block header (2 words), then records */
	uint32_t loc;   /* the location of the last LOC record */
	int fd;         /* the thread's file, -1 until its first block */
	uint64_t records, bytes; /* written: records (TIME and LOC included) and bytes (headers included) */
	uint64_t dropped;        /* records dropped in all */
	uint64_t pending;        /* records dropped and not yet said in a block written */
	uint64_t block_pending;  /* what the current block's DROPPED record says */
	uint64_t block_records;  /* records in the current block */
	int dead;                /* its file could not be created: everything is dropped */
	int busy;                /* writing a block: the end of the run leaves it alone */
	int sunk;                /* the stream stopped: buf is a small one, its records are counted, not kept */
	/* What the block's records have named so far, for the short task
	 * records (0 at a block's start; a reader keeps the same): the last
	 * task created, the last begun and its parent; and where the
	 * block's last record ends if it can grow (see EV_UNDEFERRED_BEGIN):
	 * a CREATE_BEGIN_NEXT without payload, an UNDEFERRED_BEGIN, a
	 * TASK_END_LAST, an UNDEFERRED_END. */
	uint64_t created, begun, parent;
	uint64_t *created_at, *begun_at, *ended, *ended_at;
} pomp_evbuf;

struct pomp_thr;

/* events.c */
void pomp_ev_configure(void);
void pomp_ev_thread(struct pomp_thr *t, uint32_t index);
uint64_t *pomp_ev_block(pomp_evbuf *e, uint64_t ts, uint32_t index);
void pomp_ev_finish(void);
void pomp_ev_after_fork(struct pomp_thr *t);

/* ev_slot returns where the next record of e goes at ts, with room for
 * four words: in a new block if this one is full (which clears the
 * block's registers), after a TIME record if ts is before the running
 * timestamp or 2^32 ticks or more after it. *d is the record's delta. */
static inline __attribute__((always_inline)) uint64_t *ev_slot(pomp_evbuf *e, uint32_t index, uint64_t ts, uint64_t *d)
{
	uint64_t *p = e->pos;
	if (__builtin_expect(p + 6 > e->end, 0)) /* room for a TIME record and four words */
		p = pomp_ev_block(e, ts, index);
	uint64_t dd = ts - e->last;
	if (__builtin_expect(dd >> 32, 0)) {
		p[0] = EV_TIME | 1u << 6;
		p[1] = ts;
		p += 2;
		dd = 0;
		e->block_records++;
	}
	*d = dd;
	return p;
}

/* ev_commit completes the record at p, whose payload is stored: its
 * header, of type with n payload words. */
static inline __attribute__((always_inline)) void ev_commit(pomp_evbuf *e, uint64_t *p, unsigned type, uint32_t region, uint64_t ts,
                                                           uint64_t d, int n)
{
	p[0] = type | (uint64_t)n << 6 | (uint64_t)(region & 0xffffff) << 8 | d << 32;
	e->pos = p + 1 + n;
	e->last = ts;
	e->block_records++;
}

/* ev_region reports whether header h names region. */
static inline __attribute__((always_inline)) int ev_region(uint64_t h, uint32_t region)
{
	return ((h >> 8) & 0xffffff) == (region & 0xffffff);
}

/* ev_end_created says that the creation of task id ended with its
 * execution, of region, in the block's last record if that is the end of
 * task id, created last: a TASK_END_LAST becomes a TASK_END_CREATED, an
 * UNDEFERRED_END an UNDEFERRED_TASK, or a TINY_TASK of one word where
 * its steps fit. It returns whether it did. */
static inline __attribute__((always_inline)) int ev_end_created(pomp_evbuf *e, uint32_t region, uint64_t id)
{
	uint64_t *p = e->pos;
	if (id != e->created || id != e->begun)
		return 0;
	if (p == e->ended && ev_region(p[-1], region))
		p[-1] += EV_TASK_END_CREATED - EV_TASK_END_LAST;
	else if (p == e->ended_at && ev_region(p[-2], region)) {
		uint64_t h = p[-2], w = p[-1];
		if ((h >> 42 | (uint32_t)w >> 10 | w >> 44) == 0) { /* its steps fit a TINY_TASK */
			p[-2] = (h & 0x3ffffffff00ull) | EV_TINY_TASK | (w & 0x3ff) << 42 | (w >> 32) << 52;
			e->pos = p - 1;
		} else
			p[-2] = h + EV_UNDEFERRED_TASK - EV_UNDEFERRED_END;
	} else
		return 0;
	e->ended = e->ended_at = 0;
	e->block_records++;
	return 1;
}

/* ev_task records the task record type (CREATE_BEGIN ... TASK_END) of
 * task id at ts: a and b are CREATE_BEGIN's iteration (n 2; n 1
 * without) and TASK_BEGIN's parent. It writes the short form where the
 * block's registers name the task (docs/events.md, version 6), and a
 * task's begin and end into its creation's record when it runs as it is
 * created: such a tiny task takes 8 or 16 bytes instead of 72. */
static inline __attribute__((always_inline)) void ev_task(pomp_evbuf *e, uint32_t index, unsigned type, uint32_t region, uint64_t ts,
                                                         int n, uint64_t id, uint64_t a)
{
	uint64_t d, *p;
	switch (type) {
	case EV_CREATE_BEGIN: {
		p = ev_slot(e, index, ts, &d);
		int next = id == e->created + 1;
		e->created = id;
		p[1] = next ? a : id;
		p[2] = a;
		ev_commit(e, p, next ? EV_CREATE_BEGIN_NEXT : EV_CREATE_BEGIN, region, ts, d, n - next);
		e->created_at = next && n == 1 ? e->pos : 0;
		return;
	}
	case EV_CREATE_END:
		if (ts == e->last && ev_end_created(e, region, id))
			return; /* the task has just ended here: its record says both */
		p = e->pos;
		d = ts - e->last;
		if (p == e->created_at && id == e->created && !(d >> 12) && !(p[-1] >> 52) && ev_region(p[-1], region)) {
			/* Queued as soon as created: its creation's record says both. */
			p[-1] += (EV_CREATE_QUEUED - EV_CREATE_BEGIN_NEXT) | d << 52;
			e->last = ts;
			e->block_records++;
			e->created_at = 0;
			return;
		}
		p = ev_slot(e, index, ts, &d);
		p[1] = id;
		ev_commit(e, p, id == e->created ? EV_CREATE_END_LAST : EV_CREATE_END, region, ts, d, id != e->created);
		return;
	case EV_TASK_BEGIN: {
		p = e->pos;
		d = ts - e->last;
		if (p == e->created_at && id == e->created && a == e->parent && !(d >> 32) && ev_region(p[-1], region)) {
			/* It begins as it is created: in the creation's record,
			 * which has room (ev_slot). */
			p[-1] += (EV_UNDEFERRED_BEGIN - EV_CREATE_BEGIN_NEXT) | 1u << 6;
			p[0] = d;
			e->pos = e->begun_at = p + 1;
			e->last = ts;
			e->block_records++;
			e->created_at = 0;
			e->begun = id;
			return;
		}
		p = ev_slot(e, index, ts, &d); /* a new block clears the registers */
		int same = a == e->parent, last = same && id == e->created;
		uint64_t created = e->created;
		e->begun = id;
		e->parent = a;
		if (!same && created && a < id && ((id ^ created) | (id ^ a)) >> 32 == 0) {
			/* Not the last begun one's parent, but of the thread that
			 * created the block's last created task, as the task: its
			 * ID and its parent's in one word. */
			p[1] = (uint32_t)id | (id - a) << 32;
			ev_commit(e, p, EV_TASK_BEGIN_OWN, region, ts, d, 1);
			return;
		}
		p[1] = id;
		p[2] = a;
		ev_commit(e, p, last ? EV_TASK_BEGIN_LAST : same ? EV_TASK_BEGIN_PARENT : EV_TASK_BEGIN, region, ts, d, 2 - same - last);
		return;
	}
	default: { /* EV_TASK_END */
		p = e->pos;
		d = ts - e->last;
		if (p == e->begun_at && id == e->begun && !(d >> 32) && ev_region(p[-2], region)) {
			p[-2] += EV_UNDEFERRED_END - EV_UNDEFERRED_BEGIN;
			p[-1] |= d << 32;
			e->ended_at = p;
			e->last = ts;
			e->block_records++;
			e->begun_at = 0;
			return;
		}
		p = ev_slot(e, index, ts, &d);
		int last = id == e->begun;
		uint64_t k = e->begun - id;
		if (!last && k - 1 < 4095 && !((e->begun ^ id) >> 32) && !(d >> 20)) {
			/* Begun shortly before the last begun one: k says which. */
			ev_commit(e, p, EV_TASK_END_BEFORE, region, ts, d | k << 20, 0);
			e->ended = 0;
			return;
		}
		p[1] = id;
		ev_commit(e, p, last ? EV_TASK_END_LAST : EV_TASK_END, region, ts, d, !last);
		e->ended = last ? e->pos : 0;
		return;
	}
	}
}

void pomp_ev_task(pomp_evbuf *e, uint32_t index, unsigned type, uint32_t region, uint64_t ts, int n, uint64_t id, uint64_t a);

/* ev_record appends a record of type with n (0-3) payload words to e at
 * ts; the caller has checked e->mask. Timestamps that go backwards, or
 * jump by 2^32 ticks or more, get a TIME record first. The task records
 * go through ev_task, inline where their type is known when compiled. */
static inline __attribute__((always_inline)) void ev_record(pomp_evbuf *e, uint32_t index, unsigned type, uint32_t region,
                                                           uint64_t ts, int n, uint64_t a, uint64_t b, uint64_t c)
{
	if (type >= EV_CREATE_BEGIN && type <= EV_TASK_END) {
		if (__builtin_constant_p(type))
			ev_task(e, index, type, region, ts, n, a, b);
		else
			pomp_ev_task(e, index, type, region, ts, n, a, b);
		return;
	}
	uint64_t d;
	uint64_t *p = ev_slot(e, index, ts, &d);
	p[1] = a;
	p[2] = b;
	p[3] = c;
	ev_commit(e, p, type, region, ts, d, n);
}

#endif
