/*
 * chunks.c — loop chunks (gopari instrument --chunks): the out-of-line
 * part of pomp.h's POMP_Chunk functions, which writes CHUNK_BEGIN and
 * CHUNK_END records (docs/events.md) in grains and trace modes.
 *
 * A chunk's records carry logical iteration numbers, offset / step, and
 * the loop variable's values where it is an integer (else INT64_MIN):
 *
 *   CHUNK_BEGIN [first, first value]
 *   CHUNK_END   [last, last value]
 *
 * A counting loop (schedule(static)) begins its chunk before its
 * iterations are known, and says how many there were at the end:
 *
 *   CHUNK_BEGIN [INT64_MIN, INT64_MIN, value per iteration]
 *   CHUNK_END   [last, last value, iterations]
 *
 * An end with 0 iterations closes an empty chunk: the thread got none.
 * A strip-mined loop reads the clock once per chunk, as the hooks do:
 * a chunk's CHUNK_END shares its time with the thread's next
 * CHUNK_BEGIN. Under schedule(static, k), where the next chunk is
 * computed inline, a chunk's time is its iterations', which the third
 * word of its beginning says; under schedule(dynamic, k) the clock is
 * read at the chunk's last iteration, before the runtime's dispatch of
 * the next, whose time then begins with that dispatch (third word 2),
 * but for the thread's first four chunks, which begin after theirs: the
 * dispatches of the second to the fourth are timed, each from the end
 * of the chunk before it to its beginning, so that one preempted
 * dispatch does not become the estimate of all the others.
 *
 *   CHUNK_BEGIN [first, first value, 1 or 2]
 *
 * A chunk that ends where the thread's next begins writes both in one
 * record, where both iterations fit in 32 bits:
 *
 *   CHUNK_NEXT  [last | next first << 32, last value, next first value]
 *
 * (CHUNK_NEXT_STATIC and CHUNK_NEXT_DYNAMIC when the next chunk's
 * beginning has a third word, 1 or 2.)
 */
#include <stdio.h>
#include "rt.h"

/* omp_get_schedule is weak, so that libpomp links into programs without
 * OpenMP. */
extern void omp_get_schedule(int *kind, int *chunk) __attribute__((weak));

enum { SCHED_STATIC = 1, SCHED_DYNAMIC = 2 };

/* TIMED_DISPATCHES is how many dispatches of a schedule(dynamic, k) loop
 * a thread times, the reader keeping the shortest: a thread preempted
 * in one of them (97 us against a few, once in CI) would otherwise make
 * every later chunk's execution that much too short. */
enum { TIMED_DISPATCHES = 3 };

/* on reports whether t records chunks: the end of the run stops it. */
static inline int on(pomp_thr *t)
{
	return (__atomic_load_n(&t->ev.mask, __ATOMIC_RELAXED) >> EV_CHUNK_BEGIN) & 1;
}

/* put appends a chunk record to t's stream; the caller has checked on. */
static inline __attribute__((always_inline)) void put(pomp_thr *t, unsigned type, POMP_Chunk *c, uint64_t ts, int n, int64_t a,
                                                      int64_t b, int64_t d)
{
	ev_record(&t->ev, t->index, type, c->region->id, ts, n, (uint64_t)a, (uint64_t)b, (uint64_t)d);
}

/* logical returns the logical iteration of offset x. */
static inline long long logical(const POMP_Chunk *c, long long x) { return c->step == 1 ? x : x / c->step; }

/* runtime_size returns the chunk size of schedule(runtime) where chunks
 * lie on its multiples: static and dynamic schedules. */
static long long runtime_size(void)
{
	if (!omp_get_schedule)
		return 0;
	int kind = 0, chunk = 0;
	omp_get_schedule(&kind, &chunk);
	switch (kind & 0x7fffffff) { /* without the monotonic modifier */
	case SCHED_STATIC:
		return chunk > 0 ? chunk : 0; /* without a size: one chunk per thread */
	case SCHED_DYNAMIC:
		return chunk > 0 ? chunk : 1;
	}
	return 0;
}

/* value returns the loop variable's value d iterations after v, or
 * INT64_MIN if it is unknown. */
static int64_t value(long long v, long long d, long long vstep)
{
	if (v == POMP_ITERATION_UNKNOWN || !vstep)
		return POMP_ITERATION_UNKNOWN;
	return (int64_t)((unsigned long long)v + (unsigned long long)d * (unsigned long long)vstep);
}

void pomp_rt_chunk_init(POMP_Chunk *c)
{
	pomp_thr *t = pomp_self();
	if (!on(t))
		return;
	c->thread = t;
	c->on = 1;
	long long size = c->size < 0 ? runtime_size() : c->size;
	c->size = size > 0 ? size * c->step : 0; /* from here on, in offsets */
	if (c->counting) {
		c->t0 = pomp_now();
		put(t, EV_CHUNK_BEGIN, c, c->t0, 3, POMP_ITERATION_UNKNOWN, POMP_ITERATION_UNKNOWN, c->vstep);
	}
}

/* end_open ends the open chunk of a loop with hooks at ts: its last
 * iteration is the one before next. */
static inline __attribute__((always_inline)) void end_open(pomp_thr *t, POMP_Chunk *c, uint64_t ts)
{
	long long first = logical(c, c->first), last = logical(c, c->next - c->step);
	put(t, EV_CHUNK_END, c, ts, 2, last, value(c->firstv, last - first, c->vstep), 0);
}

/* next_chunk ends the open chunk of c, if any, and begins one at offset
 * x (value v) at ts; a flag (1 or 2: strip-mined) is its third word. An
 * end and a beginning whose iterations fit in 32 bits share one
 * CHUNK_NEXT record (CHUNK_NEXT_STATIC, CHUNK_NEXT_DYNAMIC for a flag of
 * 1, 2): 32 bytes instead of 48 or 56, and one record to build. */
static inline __attribute__((always_inline)) void next_chunk(pomp_thr *t, POMP_Chunk *c, uint64_t ts, long long x, long long v,
                                                            int64_t flag)
{
	if (c->first >= 0) {
		long long first = logical(c, c->first), last = logical(c, c->next - c->step), nf = logical(c, x);
		if ((((unsigned long long)last | (unsigned long long)nf) >> 32) == 0) {
			static const unsigned next[] = {EV_CHUNK_NEXT, EV_CHUNK_NEXT_STATIC, EV_CHUNK_NEXT_DYNAMIC};
			put(t, next[flag], c, ts, 3, (int64_t)((unsigned long long)last | (unsigned long long)nf << 32),
			    value(c->firstv, last - first, c->vstep), v);
			c->first = x;
			c->firstv = v;
			return;
		}
		end_open(t, c, ts);
	}
	c->first = x;
	c->firstv = v;
	put(t, EV_CHUNK_BEGIN, c, ts, flag ? 3 : 2, logical(c, x), v, flag);
}

/* pomp_rt_chunk_iteration begins a chunk at offset x (value v), and ends
 * the one open before it: x does not follow the last iteration seen, or
 * lies on a multiple of the chunk size. */
void pomp_rt_chunk_iteration(POMP_Chunk *c, long long x, long long v)
{
	pomp_thr *t = c->thread;
	if (!on(t))
		return;
	next_chunk(t, c, pomp_now(), x, v, 0);
	if (c->size) /* the next multiple of the chunk size */
		c->bound = x == c->bound ? x + c->size : (x / c->size + 1) * c->size;
}

/* pomp_rt_chunk_begin begins a chunk of a strip-mined loop, whose
 * offsets are logical iterations, and ends the thread's previous one:
 * POMP_Chunk_end noted its last iteration in next, and under
 * schedule(dynamic, k) the time in t0. The third word of the beginning
 * is the kind of schedule: 1 static, k (its time is its iterations'),
 * 2 dynamic, k (its time begins with its dispatch). */
void pomp_rt_chunk_begin(POMP_Chunk *c, long long first)
{
	pomp_thr *t = c->thread;
	if (!on(t))
		return;
	uint64_t ts = c->t0;
	if (c->strip != 2 || c->first < 0)
		ts = pomp_now();
	else if (c->timed < TIMED_DISPATCHES) {
		/* The thread's first few in a loop: the previous chunk ends at
		 * t0 and this one begins now, the dispatch between them timed. */
		end_open(t, c, c->t0);
		c->first = -1;
		c->timed++;
		ts = pomp_now();
	}
	next_chunk(t, c, ts, first, value(c->lbv, first, c->vstep), c->strip);
}

/* pomp_rt_chunk_end reads the clock at the last iteration of a chunk
 * of a schedule(dynamic, k) loop, for its end and the next's beginning:
 * before the runtime's dispatch, whose atomic operation a clock read
 * after it waits for (+74 against +51 ns per chunk at 2 threads). */
void pomp_rt_chunk_end(POMP_Chunk *c) { c->t0 = pomp_now(); }

/* pomp_rt_chunk_close ends the last chunk: of a loop with hooks, or the
 * one chunk of a counting loop, whose n iterations ended at offset last
 * and add up to sum. */
void pomp_rt_chunk_close(POMP_Chunk *c, long long n, long long last, long long sum)
{
	pomp_thr *t = c->thread;
	if (!on(t))
		return;
	uint64_t ts = c->strip == 2 && c->first >= 0 ? c->t0 : pomp_now();
	if (!c->counting) {
		if (c->first >= 0)
			end_open(t, c, ts);
		return;
	}
	/* The iterations first, first + step, ... last add up to
	 * n * first + step * n(n-1)/2 when they were consecutive: one chunk,
	 * as a static schedule without a chunk size promises. Checked modulo
	 * 2^64. */
	unsigned long long un = (unsigned long long)n, s = (unsigned long long)c->step;
	unsigned long long first = (unsigned long long)last - (un - 1) * s;
	unsigned long long tri = un % 2 == 0 ? (un / 2) * (un - 1) : un * ((un - 1) / 2);
	if (n > 0 && un * first + s * tri != (unsigned long long)sum) {
		static int said;
		if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			fprintf(stderr, "gopari: loop at %s:%d gave a thread iterations that are not one chunk; its chunks are not recorded\n",
			        c->region->file, c->region->begin_line);
		n = 0;
	}
	if (n <= 0) {
		put(t, EV_CHUNK_END, c, ts, 3, POMP_ITERATION_UNKNOWN, POMP_ITERATION_UNKNOWN, 0);
		return;
	}
	long long ll = logical(c, last);
	put(t, EV_CHUNK_END, c, ts, 3, ll, value(c->lbv, ll, c->vstep), n);
}
