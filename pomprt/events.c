/*
 * events.c — writes the event stream of docs/events.md: each OS thread's
 * full buffer becomes one block, written with one write(2) by the thread
 * itself to its own file, events/thread-NNNNNN.evt in the experiment
 * directory. See events.h for the buffer and the records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "rt.h"

/* Buffer size per thread, in words: 256 KiB, one block. */
#ifndef EV_WORDS
#define EV_WORDS (32 * 1024)
#endif

/* Bytes held back on the stream's file system for profile.json, until
 * the end of the run or until the stream fills the disk. */
#define EV_RESERVE (4 << 20)

static pthread_mutex_t ev_mu = PTHREAD_MUTEX_INITIALIZER;
static char ev_dir[4096]; /* the experiment's events directory */
static int ev_dir_state;  /* 0: not made yet, 1: made, -1: failed */
static char ev_reserve[sizeof ev_dir + 32]; /* the file holding EV_RESERVE, or "" */
static uint64_t ev_budget; /* GOPARI_TRACE_MAX_BYTES; 0: no limit */
static uint64_t ev_spent;  /* bytes written by all threads */
static int ev_stopped;     /* a write failed: the stream stopped */

/* grains_wanted reports whether GOPARI_GRAINS=1 records grains (env.c
 * says what else it may be). Grains go with profile and trace modes,
 * not with ids or off, which call no runtime function. */
static int grains_wanted(void)
{
	if (!pomp_env_value(ENV_GRAINS))
		return 0;
	uint64_t mode = pomp_env_value(ENV_MODE);
	if (mode == ENV_MODE_IDS || mode == ENV_MODE_OFF) {
		fprintf(stderr, "gopari: GOPARI_GRAINS=1 needs GOPARI_MODE=profile or trace, not %s; no grains are recorded\n", getenv("GOPARI_MODE"));
		return 0;
	}
	return 1;
}

/* pomp_ev_configure reads the stream's settings; pomp_g.ev_mask says
 * what is recorded. Trace mode records every type; grains mode
 * (GOPARI_GRAINS=1 with profile mode) the types of EV_MASK_GRAINS, and
 * region phases only of the regions flagged RF_GRAINEV: a task's waits
 * for its children (docs/events.md, "What is recorded"). */
void pomp_ev_configure(void)
{
	int grains = grains_wanted();
	if (pomp_env_value(ENV_MODE) == ENV_MODE_TRACE) {
		pomp_g.ev_mask = EV_MASK_TRACE;
		pomp_g.ev_all = 1;
	} else if (grains)
		pomp_g.ev_mask = EV_MASK_GRAINS | EV_MASK_PHASES;
	pomp_g.ev_grains = grains;
	pomp_iterations = pomp_g.ev_mask != 0; /* tasks created in loops say their iteration */
	ev_budget = pomp_env_value(ENV_TRACE_MAX_BYTES);
}

/* pomp_ev_thread prepares thread t (OS thread index) to record. */
void pomp_ev_thread(pomp_thr *t, uint32_t index)
{
	pomp_evbuf *e = &t->ev;
	(void)index;
	e->fd = -1;
	if (!pomp_g.ev_mask)
		return;
	e->buf = malloc(EV_WORDS * sizeof *e->buf);
	if (!e->buf) {
		e->dead = 1;
		return;
	}
	e->pos = e->end = e->buf; /* the first record starts a block */
	e->mask = pomp_g.ev_mask;
}

/* reserve holds EV_RESERVE bytes back beside the stream, so that the
 * profile can be written when the stream has filled the disk. */
static void reserve(void)
{
	snprintf(ev_reserve, sizeof ev_reserve, "%s/" EV_RESERVE_FILE, ev_dir);
	int fd = open(ev_reserve, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && posix_fallocate(fd, 0, EV_RESERVE) == 0) {
		close(fd);
		return;
	}
	if (fd >= 0) {
		close(fd);
		unlink(ev_reserve);
	}
	ev_reserve[0] = 0;
}

/* release gives the reserved space back; the caller holds ev_mu. */
static void release(void)
{
	if (ev_reserve[0])
		unlink(ev_reserve);
	ev_reserve[0] = 0;
}

/* stop stops the stream after a write by OS thread index failed with
 * err at ts: every thread stops keeping records at its next block (it
 * counts them), and the reserved space goes to the profile. */
static void stop(uint32_t index, int err, uint64_t ts)
{
	pthread_mutex_lock(&ev_mu);
	if (!ev_stopped) {
		pomp_g.ev_errno = err;
		pomp_g.ev_stop_thread = index;
		pomp_g.ev_stop_ts = ts;
		release();
		__atomic_store_n(&ev_stopped, 1, __ATOMIC_RELEASE);
		fprintf(stderr, "gopari: %s/thread-%06u.evt: %s; the event stream stops here (its records are counted), the profile will be written\n",
		        ev_dir, index, strerror(err));
	}
	pthread_mutex_unlock(&ev_mu);
}

/* The run's description beside the stream, events/stream.json
 * (docs/events.md), written by Go (pompGoStreamInfo): the regions and
 * locations that the records refer to, the clock, the program. A block
 * is written only when stream.json describes every region and location
 * its records can name: one registered or made since stream.json was
 * last written makes it due again, and so does, with the TSC, a run
 * whose time has doubled since, so that the tick rate a killed run is
 * read with was measured over at least half the run up to its last
 * block (or over a second). That is a few loads per block of 256 KiB,
 * and a call to Go a few dozen times in a run at most. */
static pthread_mutex_t info_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t info_regions, info_locs; /* what it lists */
static uint64_t info_tick;               /* the clock when it was written */
static int info_settled;                 /* its tick rate was measured over a second or more */

/* info_due reports whether stream.json must be written again before a
 * block whose last record is at ts; atomic loads, as it is read without
 * info_mu first. */
static int info_due(uint64_t ts)
{
	if (__atomic_load_n(&pomp_g.nregions, __ATOMIC_RELAXED) != __atomic_load_n(&info_regions, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&pomp_g.nlocs, __ATOMIC_RELAXED) != __atomic_load_n(&info_locs, __ATOMIC_RELAXED))
		return 1;
	if (!pomp_g.use_tsc || __atomic_load_n(&info_settled, __ATOMIC_RELAXED))
		return 0;
	uint64_t last = __atomic_load_n(&info_tick, __ATOMIC_RELAXED);
	return last > pomp_g.tick0 && ts > last && ts - pomp_g.tick0 >= 2 * (last - pomp_g.tick0);
}

/* write_info writes stream.json; the caller holds info_mu. A failure is
 * said once, by Go; the next try is when more is due. */
static void write_info(void)
{
	uint32_t nr = __atomic_load_n(&pomp_g.nregions, __ATOMIC_RELAXED), nl = __atomic_load_n(&pomp_g.nlocs, __ATOMIC_RELAXED);
	uint64_t tick = pomp_now();
	uint32_t wr, wl;
	uint64_t wt;
	if (pompGoStreamInfo(&wr, &wl, &wt) == 0) /* what it wrote, at least what was due */
		nr = wr, nl = wl, tick = wt;
	__atomic_store_n(&info_regions, nr, __ATOMIC_RELAXED);
	__atomic_store_n(&info_locs, nl, __ATOMIC_RELAXED);
	__atomic_store_n(&info_tick, tick, __ATOMIC_RELAXED);
	if (pomp_g.use_tsc && tick > pomp_g.tick0 && pomp_ns() - pomp_g.ns0 >= 1000000000u)
		__atomic_store_n(&info_settled, 1, __ATOMIC_RELAXED);
}

/* info_sync brings stream.json up to date before a block that ends at ts
 * is written. */
static void info_sync(uint64_t ts)
{
	if (!info_due(ts))
		return;
	pthread_mutex_lock(&info_mu);
	if (info_due(ts))
		write_info();
	pthread_mutex_unlock(&info_mu);
}

/* events_dir makes the experiment directory (through Go, which names it)
 * and its events directory, once, with stream.json in it before anything
 * else; it returns 0 or -1. */
static int events_dir(void)
{
	pthread_mutex_lock(&ev_mu);
	if (ev_dir_state == 0) {
		ev_dir_state = -1;
		int n = pompGoRunDir(ev_dir, (int)sizeof ev_dir - 16);
		if (n > 0) {
			memcpy(ev_dir + n, "/events", 8);
			if (mkdir(ev_dir, 0755) == 0 || errno == EEXIST) {
				ev_dir_state = 1;
				pthread_mutex_lock(&info_mu);
				write_info();
				pthread_mutex_unlock(&info_mu);
				reserve();
			} else
				fprintf(stderr, "gopari: %s: %s; the trace is dropped\n", ev_dir, strerror(errno));
		}
	}
	int ok = ev_dir_state;
	pthread_mutex_unlock(&ev_mu);
	return ok > 0 ? 0 : -1;
}

/* put writes all of b to fd; it returns 0 or -1. */
static int put(int fd, const void *b, size_t n)
{
	const char *p = b;
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* open_file creates the thread's file and writes its header. */
static int open_file(pomp_evbuf *e, uint32_t index)
{
	if (events_dir() != 0)
		return -1;
	char path[sizeof ev_dir + 32];
	snprintf(path, sizeof path, "%s/thread-%06u.evt", ev_dir, index);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == ENOSPC || errno == EDQUOT) {
			stop(index, errno, e->last);
			return -1;
		}
		fprintf(stderr, "gopari: %s: %s; this thread's trace is dropped\n", path, strerror(errno));
		return -1;
	}
	unsigned char h[EV_FILE_HEADER] = {0};
	memcpy(h, EV_FILE_MAGIC, 8);
	uint16_t v = EV_VERSION, hs = EV_FILE_HEADER;
	uint32_t pid = (uint32_t)getpid();
	memcpy(h + 8, &v, 2);
	memcpy(h + 10, &hs, 2);
	memcpy(h + 12, &index, 4);
	memcpy(h + 16, &pid, 4);
	memcpy(h + 24, &pomp_g.tick0, 8);
	if (put(fd, h, sizeof h) != 0) {
		stop(index, errno, e->last);
		close(fd);
		return -1;
	}
	e->fd = fd;
	e->bytes = EV_FILE_HEADER;
	return 0;
}

/* write_block writes the open block of e (up to pos) to its file, or
 * counts its records as dropped; force writes it whatever the budget. */
static void write_block(pomp_evbuf *e, uint64_t *pos, uint32_t index, int force)
{
	size_t words = (size_t)(pos - e->buf);
	uint64_t n = e->block_records;
	if (words <= 2 || n == 0)
		return;
	size_t bytes = words * sizeof(uint64_t);
	uint32_t len = (uint32_t)(bytes - EV_BLOCK_HEADER);
	memcpy(e->buf, EV_BLOCK_MAGIC, 4);
	memcpy((char *)e->buf + 4, &len, 4);
	int ok = !e->dead;
	if (ok && e->fd < 0 && open_file(e, index) != 0)
		e->dead = 1, ok = 0;
	if (ok && ev_budget && __atomic_add_fetch(&ev_spent, bytes, __ATOMIC_RELAXED) > ev_budget && !force)
		ok = 0;
	if (ok)
		info_sync(e->last);
	if (ok && put(e->fd, e->buf, bytes) != 0) {
		/* A block is written whole or not at all: cut what part of it
		 * went out, and stop the stream. */
		int err = errno;
		if (ftruncate(e->fd, (off_t)e->bytes) != 0)
			e->dead = 1;
		ok = 0;
		stop(index, err, e->buf[1]);
	}
	if (ok) {
		e->records += n;
		e->bytes += bytes;
		e->pending -= e->block_pending; /* said by the block's DROPPED record */
	} else {
		e->dropped += n;
		e->pending += n;
	}
}

/* start_block opens a new block at ts: its LOC record, then a DROPPED
 * record if records were lost before it. The budget of
 * GOPARI_TRACE_MAX_BYTES can be exceeded by the last block of each file,
 * which says what was dropped at the end (40 bytes). */
static uint64_t *start_block(pomp_evbuf *e, uint64_t ts)
{
	uint64_t *p = e->buf + 2;
	e->buf[1] = ts;
	e->last = ts;
	p[0] = EV_LOC | 1u << 6;
	p[1] = e->loc;
	p += 2;
	e->block_records = 1;
	e->created = e->begun = e->parent = 0; /* what a reader knows at a block's start */
	e->created_at = e->begun_at = e->ended = e->ended_at = 0;
	e->block_pending = e->pending;
	if (e->pending) {
		p[0] = EV_DROPPED | 1u << 6;
		p[1] = e->pending;
		p += 2;
		e->block_records++;
	}
	e->end = e->buf + EV_WORDS;
	return p;
}

/* sink frees e's buffer once the stream has stopped, and makes a small
 * one that the thread's records go on filling, to be counted at each
 * block. */
static uint64_t *sink(pomp_evbuf *e, uint64_t ts)
{
	enum { SINK_WORDS = 64 };
	if (!e->sunk) {
		uint64_t *b = realloc(e->buf, SINK_WORDS * sizeof *b); /* shrinks: cannot fail */
		if (b)
			e->buf = b;
		e->sunk = 1;
	}
	e->block_records = 0;
	e->created_at = e->begun_at = e->ended = e->ended_at = 0;
	e->last = ts;
	e->pos = e->buf;
	e->end = e->buf + SINK_WORDS;
	return e->buf;
}

/* pomp_ev_task is ev_task for a type known only when run. */
void pomp_ev_task(pomp_evbuf *e, uint32_t index, unsigned type, uint32_t region, uint64_t ts, int n, uint64_t id, uint64_t a)
{
	switch (type) {
	case EV_CREATE_BEGIN:
		ev_task(e, index, EV_CREATE_BEGIN, region, ts, n, id, a);
		return;
	case EV_CREATE_END:
		ev_task(e, index, EV_CREATE_END, region, ts, n, id, a);
		return;
	case EV_TASK_BEGIN:
		ev_task(e, index, EV_TASK_BEGIN, region, ts, n, id, a);
		return;
	default:
		ev_task(e, index, EV_TASK_END, region, ts, n, id, a);
	}
}

/* pomp_ev_block writes the full block of e and starts another at ts; it
 * returns where the next record goes. */
uint64_t *pomp_ev_block(pomp_evbuf *e, uint64_t ts, uint32_t index)
{
	__atomic_store_n(&e->busy, 1, __ATOMIC_SEQ_CST);
	uint64_t *p;
	if (!__atomic_load_n(&ev_stopped, __ATOMIC_ACQUIRE))
		write_block(e, e->pos, index, 0); /* written or counted as dropped */
	else
		e->dropped += e->block_records;
	if (__atomic_load_n(&ev_stopped, __ATOMIC_ACQUIRE)) {
		p = sink(e, ts);
	} else {
		p = start_block(e, ts);
		e->pos = p;
	}
	__atomic_store_n(&e->busy, 0, __ATOMIC_RELEASE);
	return p;
}



/* idle waits up to 250 ms for another thread to finish writing a block
 * of e (a write(2) of at most 256 KiB): it returns whether it did. The
 * thread that ends the run on a signal or an exit() would otherwise
 * leave that thread's records out, and early in a run a thread's first
 * block holds all it has recorded. */
static int idle(pomp_evbuf *e)
{
	struct timespec ms = {0, 1000000};
	for (int i = 0; i < 250; i++) {
		if (!__atomic_load_n(&e->busy, __ATOMIC_ACQUIRE))
			return 1;
		nanosleep(&ms, NULL);
	}
	return !__atomic_load_n(&e->busy, __ATOMIC_ACQUIRE);
}

/* pomp_ev_finish writes what every thread has recorded, from the thread
 * that ends the run; other threads may still run (exit() from one of
 * them, a signal). They stop recording first, and one that was writing
 * a block is given time to finish it (idle). A thread still writing
 * after that, or one that went on recording, makes the stream
 * incomplete. */
void pomp_ev_finish(void)
{
	if (!pomp_g.ev_mask)
		return;
	pthread_mutex_lock(&pomp_g.mu);
	pomp_thr *all = pomp_g.threads;
	pthread_mutex_unlock(&pomp_g.mu);
	for (pomp_thr *t = all; t; t = t->next)
		__atomic_store_n(&t->ev.mask, 0, __ATOMIC_SEQ_CST);
	int complete = 1;
	pomp_thr *me = pomp_self_if_any();
	for (pomp_thr *t = all; t; t = t->next) {
		pomp_evbuf *e = &t->ev;
		if (!e->buf)
			continue;
		/* A thread writing a block finishes it (unless it is this one,
		 * interrupted by the signal that ends the run). */
		if (__atomic_load_n(&e->busy, __ATOMIC_ACQUIRE) && (t == me || !idle(e))) {
			complete = 0;
			continue;
		}
		uint64_t *pos = __atomic_load_n(&e->pos, __ATOMIC_ACQUIRE);
		if (!__atomic_load_n(&ev_stopped, __ATOMIC_ACQUIRE))
			write_block(e, pos, t->index, 0);
		else
			e->dropped += e->block_records;
		if (__atomic_load_n(&e->pos, __ATOMIC_ACQUIRE) != pos)
			complete = 0;
		if (e->pending && !__atomic_load_n(&ev_stopped, __ATOMIC_ACQUIRE)) {
			/* What was dropped last is said in a block of its own, past
			 * the budget if need be: a drop is never silent. */
			uint64_t *p = start_block(e, e->last);
			write_block(e, p, t->index, 1);
		}
		if (e->fd >= 0)
			close(e->fd);
		e->fd = -1;
		e->dead = 1;
	}
	pthread_mutex_lock(&ev_mu);
	release(); /* the profile's room */
	pthread_mutex_unlock(&ev_mu);
	pomp_g.ev_complete = complete;
	pomp_g.ev_done = 1;
}

/* pomp_ev_after_fork stops a forked child from recording: the files are
 * its parent's. A child's profile is written, not its trace. */
void pomp_ev_after_fork(pomp_thr *t)
{
	pomp_evbuf *e = &t->ev;
	e->mask = 0;
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
	e->dead = 1;
	pomp_g.ev_mask = 0;
	pomp_iterations = 0;
}
