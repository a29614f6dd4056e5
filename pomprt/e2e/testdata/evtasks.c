/* evtasks.c: the task records of events.h (ev_task: short forms, an
 * undeferred task grown into one record) in blocks of any size. Usage:
 * evtasks WORDS SEED N. Writes a stream file of blocks of WORDS words to
 * stdout, made of N random steps of tasks created and run as a thread
 * does (undeferred, deferred and run later, nested, in a loop's body,
 * from another thread, other records between, clock jumps), and on
 * stderr the records a reader must return, one a line: type name, the
 * payload words, the time. pomp_ev_block stands in for events.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events.h"

static uint64_t buf[1 << 16];
static uint64_t words;

/* pomp_ev_block writes the block of e and starts another at ts, as
 * events.c's start_block does: a LOC record, the registers cleared. */
uint64_t *pomp_ev_block(pomp_evbuf *e, uint64_t ts, uint32_t index)
{
	(void)index;
	size_t n = (size_t)(e->pos - e->buf);
	if (n > 2) {
		uint32_t len = (uint32_t)(n - 2) * 8;
		memcpy(e->buf, EV_BLOCK_MAGIC, 4);
		memcpy((char *)e->buf + 4, &len, 4);
		fwrite(e->buf, 8, n, stdout);
	}
	e->buf[1] = ts;
	e->last = ts;
	uint64_t *p = e->buf + 2;
	p[0] = EV_LOC | 1u << 6;
	p[1] = 0;
	e->pos = p + 2;
	e->end = e->buf + words;
	e->created = e->begun = e->parent = 0;
	e->created_at = e->begun_at = e->ended = e->ended_at = 0;
	return e->pos;
}

void pomp_ev_task(pomp_evbuf *e, uint32_t index, unsigned type, uint32_t region, uint64_t ts, int n, uint64_t id, uint64_t a)
{
	(void)e, (void)index, (void)type, (void)region, (void)ts, (void)n, (void)id, (void)a;
	abort(); /* every call here has its type when compiled */
}

static pomp_evbuf ev;
static uint64_t now = 1000, seed;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(seed >> 33) % n;
}

/* tick advances the clock: mostly a little, now and then by about 2^10,
 * 2^12 or 2^20, by 2^32 or more, or backwards. */
static uint64_t tick(void)
{
	unsigned r = rnd(100);
	if (r == 0)
		now += 5ull << 32;
	else if (r == 1 && now > 50)
		now -= 40;
	else if (r == 2) /* about the edges of a TINY_TASK's steps */
		now += 1020 + rnd(8);
	else if (r == 3)
		now += 4090 + rnd(10);
	else if (r == 4) /* about the edge of a TASK_END_BEFORE's delta */
		now += (1u << 20) - 4 + rnd(8);
	else
		now += rnd(r < 10 ? 3 : 50);
	return now;
}

#define REC(type, region, ts, n, a, b)                                                              \
	do {                                                                                        \
		uint64_t ts_ = (ts), a_ = (a), b_ = (b);                                            \
		ev_record(&ev, 0, type, region, ts_, n, a_, b_, 0);                                 \
		fprintf(stderr, "%s %llu %llu %llu\n", #type + 3, (unsigned long long)a_,           \
		        (unsigned long long)(n > 1 ? b_ : 0), (unsigned long long)ts_);             \
	} while (0)

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	words = strtoull(argv[1], 0, 10);
	seed = strtoull(argv[2], 0, 10);
	long steps = atol(argv[3]);
	if (words < 8 || words > sizeof buf / 8)
		return 2;
	unsigned char h[EV_FILE_HEADER] = "GOPARIEV";
	uint16_t v = EV_VERSION, hs = EV_FILE_HEADER;
	memcpy(h + 8, &v, 2);
	memcpy(h + 10, &hs, 2);
	fwrite(h, 1, sizeof h, stdout);
	ev.buf = ev.pos = ev.end = buf;
	ev.mask = ~0ull;
	uint64_t next = 1ull << 32 | 1, cur = 1ull << 32, queue[64];
	int nq = 0;
	REC(EV_ENTER, 1, tick(), 0, 0, 0);
	for (long i = 0; i < steps; i++) {
		uint32_t rg = 2 + rnd(2);
		uint64_t id = next++;
		switch (rnd(8)) {
		case 0: case 1: case 2: /* undeferred: its creation ends with it */
			REC(EV_CREATE_BEGIN, rg, tick(), 1, id, 0);
			REC(EV_TASK_BEGIN, rg, tick(), 2, id, cur);
			if (rnd(4) == 0)
				REC(EV_ENTER, 5, tick(), 0, 0, 0);
			REC(EV_TASK_END, rg, tick(), 1, id, 0);
			REC(EV_CREATE_END, rg, rnd(8) ? ev.last : tick(), 1, id, 0);
			break;
		case 3: /* deferred, in a loop's body or not */
			if (rnd(2))
				REC(EV_CREATE_BEGIN, rg, tick(), 2, id, (uint64_t)rnd(9));
			else
				REC(EV_CREATE_BEGIN, rg, tick(), 1, id, 0);
			REC(EV_CREATE_END, rg, tick(), 1, id, 0);
			if (nq < 64)
				queue[nq++] = id;
			break;
		case 4: /* a queued task runs, the last created or another */
			if (nq) {
				int k = rnd(2) ? nq - 1 : (int)rnd((unsigned)nq);
				uint64_t q = queue[k];
				queue[k] = queue[--nq];
				REC(EV_TASK_BEGIN, rg, tick(), 2, q, cur);
				REC(EV_TASK_END, rg, tick(), 1, q, 0);
			}
			break;
		case 5: { /* nested: a task created and run in one run as created */
			uint64_t in = next++;
			REC(EV_CREATE_BEGIN, rg, tick(), 1, id, 0);
			REC(EV_TASK_BEGIN, rg, tick(), 2, id, cur);
			REC(EV_CREATE_BEGIN, rg, tick(), 1, in, 0);
			REC(EV_TASK_BEGIN, rg, tick(), 2, in, id);
			REC(EV_TASK_END, rg, tick(), 1, in, 0);
			REC(EV_CREATE_END, rg, ev.last, 1, in, 0);
			REC(EV_TASK_END, rg, tick(), 1, id, 0);
			REC(EV_CREATE_END, rg, ev.last, 1, id, 0);
			break;
		}
		case 6: /* another thread's task */
			REC(EV_TASK_BEGIN, rg, tick(), 2, 7ull << 32 | id, cur + rnd(2));
			REC(EV_TASK_END, rg, tick(), 1, 7ull << 32 | id, 0);
			break;
		default: /* other records */
			REC(EV_ENTER, 4, tick(), 0, 0, 0);
			REC(EV_EXIT, 4, tick(), 0, 0, 0);
		}
	}
	pomp_ev_block(&ev, now, 0);
	return 0;
}
