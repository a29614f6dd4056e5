/*
 * snapshot.c — the measurements of a forked child, which never calls Go
 * (lifecycle.c): written async-signal-safely into an anonymous file,
 * passed to the root over the control socket, and read there.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rt.h"
#include "lifecycle.h"

/* ---------------------------------------------------------------------
 * The snapshot of a forked child: its state, written with write(2) into
 * an anonymous file, in this layout (host byte order and struct layout:
 * the root that reads it runs the same program):
 *
 *   struct snap_hdr
 *   POMP_Region[nregions]  regions 1..n; string fields hold offset + 1
 *                          into the string table, or 0
 *   char[strings]          the string table, padded to 8 bytes
 *   nlocs x { pomp_loc, pomp_stat[loc.nstat] }
 *   nthreads x { pomp_thr, uint64_t[thr.nids] }
 *
 * Pointers in the copied structs are meaningless and are set anew by
 * pomp_snapshot_open.
 */
#define SNAP_MAGIC "GOPARIf1"
#define MSG_MAGIC "GOPARIfk"

struct snap_hdr {
	char magic[8];
	uint32_t size_hdr, size_region, size_loc, size_stat, size_thr;
	int32_t pid, ppid, sig, mode, use_tsc, depth;
	int32_t chain[POMP_FORK_CHAIN];
	uint32_t nregions, nlocs, nthreads, pad;
	uint64_t start_ns, end_ns, strings;
};

struct snap_msg {
	char magic[8];
	int32_t pid, pad;
};

/* A small buffered writer on write(2). */
typedef struct {
	int fd, err;
	size_t n;
	char buf[4096];
} snap_writer;

static void sw_flush(snap_writer *w)
{
	size_t off = 0;
	while (off < w->n && !w->err) {
		ssize_t k = write(w->fd, w->buf + off, w->n - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			w->err = 1;
		else
			off += (size_t)k;
	}
	w->n = 0;
}

static void sw_put(snap_writer *w, const void *p, size_t len)
{
	const char *c = p;
	while (len > 0 && !w->err) {
		size_t k = sizeof w->buf - w->n;
		if (k > len)
			k = len;
		memcpy(w->buf + w->n, c, k);
		w->n += k;
		c += k;
		len -= k;
		if (w->n == sizeof w->buf)
			sw_flush(w);
	}
}

static const char *const *region_strings(const POMP_Region *r, const char *s[4])
{
	s[0] = r->file;
	s[1] = r->name;
	s[2] = r->sub_name;
	s[3] = r->clauses;
	return s;
}

/* snap_header fills the header of this process's snapshot. */
static void snap_header(struct snap_hdr *h, int sig)
{
	memset(h, 0, sizeof *h);
	memcpy(h->magic, SNAP_MAGIC, 8);
	h->size_hdr = sizeof *h;
	h->size_region = sizeof(POMP_Region);
	h->size_loc = sizeof(pomp_loc);
	h->size_stat = sizeof(pomp_stat);
	h->size_thr = sizeof(pomp_thr);
	h->pid = (int32_t)getpid();
	h->ppid = (int32_t)getppid();
	h->sig = sig;
	h->mode = pomp_g.mode;
	h->use_tsc = pomp_g.use_tsc;
	h->depth = pomp_fork_level;
	memcpy(h->chain, pomp_fork_chain, sizeof h->chain);
	h->nregions = pomp_g.nregions;
	h->nlocs = pomp_g.nlocs;
	for (pomp_thr *t = pomp_g.threads; t; t = t->next)
		h->nthreads++;
	h->start_ns = pomp_g.ns0;
	h->end_ns = pomp_ns();
	for (uint32_t id = 1; id <= h->nregions; id++) {
		const char *s[4];
		region_strings(pomp_g.regions[id], s);
		for (int k = 0; k < 4; k++)
			if (s[k])
				h->strings += strlen(s[k]) + 1;
	}
	h->strings = (h->strings + 7) & ~(uint64_t)7;
}

/* put_regions writes the n regions, their strings as offsets into the
 * string table that follows them, padded to strings bytes. */
static void put_regions(snap_writer *w, POMP_Region **regions, uint32_t n, uint64_t strings)
{
	uint64_t off = 0;
	for (uint32_t id = 1; id <= n; id++) {
		POMP_Region r = *regions[id];
		const char *s[4];
		const char **f[4] = {&r.file, &r.name, &r.sub_name, &r.clauses};
		region_strings(regions[id], s);
		for (int k = 0; k < 4; k++) {
			*f[k] = s[k] ? (const char *)(uintptr_t)(off + 1) : NULL;
			if (s[k])
				off += strlen(s[k]) + 1;
		}
		sw_put(w, &r, sizeof r);
	}
	for (uint32_t id = 1; id <= n; id++) {
		const char *s[4];
		region_strings(regions[id], s);
		for (int k = 0; k < 4; k++)
			if (s[k])
				sw_put(w, s[k], strlen(s[k]) + 1);
	}
	static const char zeros[8];
	sw_put(w, zeros, strings - off);
}

/* write_snapshot writes this process's state; it returns 0 on success. */
static int write_snapshot(int fd, int sig)
{
	static snap_writer w; /* one writer: the run ends once */
	w.fd = fd;
	w.err = 0;
	w.n = 0;
	struct snap_hdr h;
	snap_header(&h, sig);
	uint32_t nregions = h.nregions;
	pomp_loc **locs = pomp_g.locs;
	sw_put(&w, &h, sizeof h);
	put_regions(&w, pomp_g.regions, nregions, h.strings);
	for (uint32_t i = 0; i < h.nlocs; i++) {
		pomp_loc l = *locs[i];
		if (l.nstat > nregions + 1)
			l.nstat = nregions + 1; /* the rest is unused */
		sw_put(&w, &l, sizeof l);
		sw_put(&w, locs[i]->stat, l.nstat * sizeof *l.stat);
		/* Each statistic's creation-tree edges follow its array. */
		for (uint32_t k = 0; k < l.nstat; k++)
			if (locs[i]->stat[k].nedges)
				sw_put(&w, locs[i]->stat[k].edges, locs[i]->stat[k].nedges * sizeof(pomp_edge));
	}
	uint32_t k = 0;
	for (pomp_thr *t = pomp_g.threads; t && k < h.nthreads; t = t->next, k++) {
		sw_put(&w, t, sizeof *t);
		if (t->nids)
			sw_put(&w, t->ids, t->nids * sizeof *t->ids);
	}
	sw_flush(&w);
	return w.err;
}

/* send_fd passes fd with a message naming this process to the root. It
 * returns 0, or -1 with errno set: EPIPE if the root has stopped
 * accepting snapshots (it ended), EBADF if the program closed the
 * socket or reused its number. */
static int send_fd(int fd)
{
	struct ucred cr;
	socklen_t crlen = sizeof cr;
	if (pomp_ctl[1] < 0 || getsockopt(pomp_ctl[1], SOL_SOCKET, SO_PEERCRED, &cr, &crlen) != 0 || cr.pid != pomp_root_pid) {
		errno = EBADF;
		return -1;
	}
	struct snap_msg m;
	memset(&m, 0, sizeof m);
	memcpy(m.magic, MSG_MAGIC, 8);
	m.pid = (int32_t)getpid();
	struct iovec iov = {.iov_base = &m, .iov_len = sizeof m};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	memset(&u, 0, sizeof u);
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	for (;;) {
		if (sendmsg(pomp_ctl[1], &msg, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)sizeof m)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -1;
		/* The root is busy with other children's snapshots. */
		struct pollfd p = {.fd = pomp_ctl[1], .events = POLLOUT};
		if (poll(&p, 1, SIGNAL_WAIT_MS) <= 0)
			return -1;
	}
}

/* child_finish hands the state of a forked child to the root; ts is the
 * end of its run. */
void pomp_child_finish(int sig, uint64_t ts)
{
	if (pomp_g.mode == POMP_MODE_OFF || pomp_g.nregions == 0)
		return;
	if (sig == 0)
		pthread_mutex_lock(&pomp_g.mu); /* not from a signal handler */
	pomp_close_calls(ts);
	int fd = pomp_ctl[1] < 0 ? -1 : memfd_create("gopari-fork", MFD_CLOEXEC);
	int ok = fd >= 0 && write_snapshot(fd, sig) == 0;
	if (sig == 0)
		pthread_mutex_unlock(&pomp_g.mu);
	int sent = ok ? send_fd(fd) : -1, err = errno;
	if (fd >= 0)
		close(fd);
	if (sent == 0)
		return;
	if (!ok)
		pomp_say("gopari: process ", (long)getpid(), " writes no profile: its snapshot could not be written", -1, "\n");
	else if (err == EBADF)
		pomp_say("gopari: process ", (long)getpid(), " writes no profile: its channel to the process it was forked from (", (long)pomp_root_pid,
		    "), which writes it, was closed\n");
	else
		pomp_say("gopari: process ", (long)getpid(), " writes no profile: the process it was forked from (", (long)pomp_root_pid,
		    ") has ended, and only that one can write it\n");
}

/* ---------------------------------------------------------------------
 * Reading a snapshot, in the root.
 */
static int snap_take(char **p, char *end, size_t len, void **out)
{
	if ((size_t)(end - *p) < len)
		return -1;
	*out = *p;
	*p += len;
	return 0;
}

static const char *snap_string(const char *table, uint64_t size, const char *v)
{
	uintptr_t off = (uintptr_t)v;
	if (off == 0)
		return NULL;
	off--;
	if (off >= size || memchr(table + off, 0, size - off) == NULL)
		return "";
	return table + off;
}

/* read_regions reads the regions and their string table at *p into g;
 * it returns 0, or -1 if they do not fit before end. */
static int read_regions(const struct snap_hdr *h, char **p, char *end, pomp_rt *g)
{
	void *rp, *strp;
	if ((uint64_t)h->nregions * sizeof(POMP_Region) > (uint64_t)(end - *p) ||
	    snap_take(p, end, h->nregions * sizeof(POMP_Region), &rp) != 0 || h->strings > (uint64_t)(end - *p) ||
	    snap_take(p, end, h->strings, &strp) != 0)
		return -1;
	POMP_Region *regs = rp;
	const char *strings = strp;
	for (uint32_t id = 1; id <= h->nregions; id++) {
		POMP_Region *r = &regs[id - 1];
		r->file = snap_string(strings, h->strings, r->file);
		r->name = snap_string(strings, h->strings, r->name);
		r->sub_name = snap_string(strings, h->strings, r->sub_name);
		r->clauses = snap_string(strings, h->strings, r->clauses);
		if (!r->file)
			r->file = "";
		if (!r->name)
			r->name = "";
		if (!r->clauses)
			r->clauses = "";
		g->regions[id] = r;
	}
	return 0;
}

/* read_locs reads the locations at *p, each with its statistics and
 * their edges, into g; it returns 0, or -1 if they do not fit before
 * end. */
static int read_locs(const struct snap_hdr *h, char **p, char *end, pomp_rt *g)
{
	for (uint32_t i = 0; i < h->nlocs; i++) {
		void *lp, *sp;
		if (snap_take(p, end, sizeof(pomp_loc), &lp) != 0)
			return -1;
		pomp_loc *l = lp;
		if (l->parent >= h->nlocs || (uint64_t)l->nstat * sizeof(pomp_stat) > (uint64_t)(end - *p) ||
		    snap_take(p, end, l->nstat * sizeof(pomp_stat), &sp) != 0)
			return -1;
		l->stat = sp;
		for (uint32_t k = 0; k < l->nstat; k++) {
			pomp_stat *st = &l->stat[k];
			void *ep = NULL;
			if (st->nedges &&
			    ((uint64_t)st->nedges * sizeof(pomp_edge) > (uint64_t)(end - *p) ||
			     snap_take(p, end, st->nedges * sizeof(pomp_edge), &ep) != 0))
				return -1;
			st->edges = ep;
			st->capedges = st->nedges;
		}
		l->children = NULL;
		l->nchildren = 0;
		l->index = i;
		g->locs[i] = l;
	}
	return 0;
}

/* read_threads reads the threads at *p, each with its task IDs, into g;
 * it returns 0, or -1 if they do not fit before end. */
static int read_threads(const struct snap_hdr *h, char **p, char *end, pomp_rt *g)
{
	pomp_thr **tail = &g->threads;
	for (uint32_t i = 0; i < h->nthreads; i++) {
		void *tp, *ip;
		if (snap_take(p, end, sizeof(pomp_thr), &tp) != 0)
			return -1;
		pomp_thr *t = tp;
		if (t->nids > (uint64_t)(end - *p) / sizeof(uint64_t) || snap_take(p, end, t->nids * sizeof(uint64_t), &ip) != 0)
			return -1;
		t->ids = ip;
		t->fr = NULL;
		t->nfr = t->capfr = 0;
		t->capids = t->nids;
		t->stat = NULL;
		t->next = NULL;
		*tail = t;
		tail = &t->next;
		g->nthreads++;
	}
	return 0;
}

/* pomp_snapshot_open reads the snapshot in fd into s, ready for collect;
 * it returns 0, or -1 if the file is not a whole snapshot of this
 * program. */
int pomp_snapshot_open(int fd, pomp_snapshot *s)
{
	memset(s, 0, sizeof *s);
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(struct snap_hdr))
		return -1;
	char *base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED)
		return -1;
	s->map = base;
	s->len = (size_t)st.st_size;
	char *p = base, *end = base + st.st_size;
	struct snap_hdr *h = (struct snap_hdr *)base;
	p += sizeof *h;
	if (memcmp(h->magic, SNAP_MAGIC, 8) != 0 || h->size_hdr != sizeof *h || h->size_region != sizeof(POMP_Region) ||
	    h->size_loc != sizeof(pomp_loc) || h->size_stat != sizeof(pomp_stat) || h->size_thr != sizeof(pomp_thr))
		goto bad;
	s->pid = h->pid;
	s->ppid = h->ppid;
	s->sig = h->sig;
	s->depth = h->depth < POMP_FORK_CHAIN ? h->depth : POMP_FORK_CHAIN;
	for (int i = 0; i < s->depth; i++)
		s->chain[i] = h->chain[i];
	s->start_ns = h->start_ns;
	s->end_ns = h->end_ns;
	s->exit = h->sig ? pomp_signal_name(h->sig) : "exit";
	pomp_rt *g = &s->rt;
	pthread_mutex_init(&g->mu, NULL);
	g->mode = h->mode;
	g->use_tsc = h->use_tsc;
	g->ns0 = h->start_ns;
	g->nregions = h->nregions;
	g->nlocs = h->nlocs;
	g->regions = calloc((size_t)h->nregions + 1, sizeof *g->regions);
	g->locs = calloc(h->nlocs ? h->nlocs : 1, sizeof *g->locs);
	if (!g->regions || !g->locs || read_regions(h, &p, end, g) != 0 || read_locs(h, &p, end, g) != 0 ||
	    read_threads(h, &p, end, g) != 0)
		goto bad;
	return 0;
bad:
	pomp_snapshot_close(s);
	return -1;
}

void pomp_snapshot_close(pomp_snapshot *s)
{
	free(s->rt.regions);
	free(s->rt.locs);
	if (s->map)
		munmap(s->map, s->len);
	memset(s, 0, sizeof *s);
}
