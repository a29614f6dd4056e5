/*
 * lifecycle.c — how a measured process starts, forks and ends: the
 * initialisation before the program's constructors, exit() from any
 * thread, the signals that end a run, and fork() without exec. The
 * per-event work is in rt.c.
 *
 * ONE FINALISATION PATH. A run ends once, through end_run(), whatever
 * ends it: a return from main or exit() from any thread (at_exit), a
 * caught signal (pomp_signal_exit, on the Go side's control goroutine),
 * a crash, or MPI_Abort (pomp_end_run_as). The first caller claims the run (fin_state NONE -> RUNNING)
 * and writes the results; every later caller waits until they are
 * written (DONE) and then carries on ending the process. Anything that
 * must happen at the end of a run (flushing buffers, writing files) goes
 * into finish() below, and nowhere else.
 *
 * THE GO RUNTIME AND FORK. The profile is written by Go (main.go,
 * finalize.go). A Go C archive starts its runtime from a constructor on
 * a thread of its own, and keeps more threads (scheduler, garbage
 * collector, the control goroutine). fork() copies only the calling
 * thread, so in a forked child the Go runtime is a shell: its first call
 * waits forever for an initialisation or a thread that no longer exists.
 * A forked child therefore never calls Go. It writes its measurements,
 * in C and async-signal-safely, as a snapshot into an anonymous file and
 * passes the file over a socket to the process that started the run (the
 * root), whose Go side writes the child's profile into the child's own
 * experiment directory (finalize.go). The root stops accepting snapshots
 * when it ends; a child that ends after that writes nothing and says so.
 * A child of vfork(), posix_spawn(), system() or popen() execs at once:
 * the new program starts afresh (and, if instrumented, measures itself).
 *
 * THE CONTROL SOCKET. One SOCK_SEQPACKET socket pair, made at start-up:
 * the root's control goroutine reads ctl[0]; ctl[1] carries a one-byte
 * message from the signal handler (the signal number) and one message
 * per forked child (its pid, with the snapshot's file descriptor).
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "rt.h"

/* ---------------------------------------------------------------------
 * The state of the run's end.
 */
enum { FIN_NONE = 0, FIN_RUNNING, FIN_DONE };
static int fin_state;         /* futex word */
static pid_t root_pid;        /* the process whose Go runtime works */
static pid_t fork_pid;        /* set in a child made by fork() */
static int ctl[2] = {-1, -1}; /* the control socket pair */

/* The pids of the forks between the root and this process, oldest
 * first; they name the child's experiment directory. */
#define FORK_CHAIN POMP_FORK_CHAIN
static int fork_chain[FORK_CHAIN];
static int fork_depth;

/* Waits for the end of a run that another thread is finishing, or that
 * a signal is finishing. Crash signals and SIGPIPE wait at most this
 * long, in case the thread that crashed holds what the writer needs. */
#define SIGNAL_WAIT_MS 10000

/* The number of threads that can be inside exit() at one time while the
 * profile is written; see at_exit. */
#define EXIT_GUARDS 64

static int forked(void) { return fork_pid != 0 && getpid() == fork_pid; }

/* foreign reports a process that shares this memory or a copy of it but
 * was made without the fork handlers (vfork, clone): it must not touch
 * the run's state. */
static int foreign(void) { return getpid() != root_pid && !forked(); }

static int claim(void)
{
	int none = FIN_NONE;
	if (!__atomic_compare_exchange_n(&fin_state, &none, FIN_RUNNING, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return 0;
	pomp_g.finalized = 1;
	return 1;
}

static void mark_done(void)
{
	__atomic_store_n(&fin_state, FIN_DONE, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &fin_state, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* wait_done waits until the run's results are written, for at most
 * timeout_ms (forever if negative), and returns whether they were. It is
 * async-signal-safe. */
static int wait_done(int timeout_ms)
{
	struct timespec end;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout_ms / 1000;
	end.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	int v;
	while ((v = __atomic_load_n(&fin_state, __ATOMIC_SEQ_CST)) != FIN_DONE) {
		struct timespec now, rel, *tp = NULL;
		if (timeout_ms >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			rel.tv_sec = end.tv_sec - now.tv_sec;
			rel.tv_nsec = end.tv_nsec - now.tv_nsec;
			if (rel.tv_nsec < 0) {
				rel.tv_sec--;
				rel.tv_nsec += 1000000000;
			}
			if (rel.tv_sec < 0)
				return 0;
			tp = &rel;
		}
		syscall(SYS_futex, &fin_state, FUTEX_WAIT_PRIVATE, v, tp, NULL, 0);
	}
	return 1;
}

/* say writes a message to stderr, async-signal-safely. */
static void say(const char *a, long n1, const char *b, long n2, const char *c)
{
	char buf[512];
	size_t len = 0;
	const char *parts[5] = {a, NULL, b, NULL, c};
	long nums[5] = {0, n1, 0, n2, 0};
	for (int i = 0; i < 5; i++) {
		if (i == 1 || i == 3) {
			char d[24];
			int nd = 0;
			long v = nums[i];
			if (v < 0)
				continue;
			do
				d[nd++] = (char)('0' + v % 10);
			while ((v /= 10) > 0 && nd < (int)sizeof d);
			while (nd > 0 && len < sizeof buf)
				buf[len++] = d[--nd];
			continue;
		}
		for (const char *p = parts[i]; p && *p && len < sizeof buf; p++)
			buf[len++] = *p;
	}
	if (write(2, buf, len) < 0) {
		/* nothing to do */
	}
}

static void child_finish(int sig, uint64_t ts);

/* close_calls closes, at ts, the MPI calls that the end of the run
 * interrupts (a thread blocked in MPI_Recv when SIGTERM comes, the
 * caller's own MPI_Abort): each keeps its visit, and its time up to ts,
 * in its region's statistics, as if it had returned then. A call that
 * returns meanwhile finds it closed and leaves its frame alone
 * (pomp_call_end). The caller holds pomp_g.mu, or is a signal handler
 * in a forked child. */
static void close_calls(uint64_t ts)
{
	for (pomp_thr *t = pomp_g.threads; t; t = t->next) {
		int in = CALL_IN;
		if (!__atomic_compare_exchange_n(&t->call_state, &in, CALL_TAKEN, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		int k = t->call_frame;
		if (k <= 0 || k != t->nfr - 1)
			continue; /* the call runs code of the program's (a reduction operator) */
		pomp_frame *f = &t->fr[k];
		if (f->kind != FR_PHASE || f->region >= t->nstat)
			continue;
		pomp_close_phase_at(t, ts > f->start ? ts : f->start);
	}
}

int pomp_call_begin(pomp_thr *t)
{
	int prev = __atomic_load_n(&t->call_state, __ATOMIC_RELAXED) == CALL_IN ? t->call_frame : -1;
	t->call_frame = t->nfr - 1;
	__atomic_store_n(&t->call_state, CALL_IN, __ATOMIC_RELEASE);
	return prev;
}

int pomp_call_end(pomp_thr *t, int prev)
{
	if (__atomic_exchange_n(&t->call_state, CALL_NONE, __ATOMIC_ACQ_REL) == CALL_TAKEN)
		return 0;
	if (prev >= 0) { /* a call made inside another (by the MPI library) */
		t->call_frame = prev;
		__atomic_store_n(&t->call_state, CALL_IN, __ATOMIC_RELEASE);
	}
	return 1;
}

/* finish writes the run's results: through Go in the root, as a
 * snapshot for the root in a forked child. exit is "exit", "MPI_Abort"
 * or the name of the signal that ends the run. */
static void finish(const char *exit, int sig)
{
	uint64_t ts = pomp_now();
	pomp_rt_close(!forked()); /* what the run leaves open, for the stream and the profile */
	if (forked()) {
		child_finish(sig, ts);
	} else {
		pthread_mutex_lock(&pomp_g.mu);
		close_calls(ts);
		pthread_mutex_unlock(&pomp_g.mu);
		pomp_ev_finish(); /* the event stream first: the profile says what it holds */
		pompGoFinalize((char *)exit);
	}
}

/* end_run ends the run once (see the top of this file); a caller that
 * comes second waits at most timeout_ms for the first (forever if
 * negative). */
static void end_run(const char *exit, int sig, int timeout_ms)
{
	if (foreign())
		return;
	if (!claim()) {
		wait_done(timeout_ms);
		return;
	}
	finish(exit, sig);
	mark_done();
}

void pomp_finalize_now(void) { end_run("exit", 0, -1); }

void pomp_end_run_as(const char *exit)
{
	if (foreign())
		return;
	if (!claim()) {
		wait_done(SIGNAL_WAIT_MS); /* exit() or a signal is ending it */
		return;
	}
	pomp_mode = POMP_MODE_OFF; /* other threads may still run: they stop recording */
	finish(exit, 0);
	mark_done();
}

/* ---------------------------------------------------------------------
 * exit(). glibc lets several threads call exit() at once: each runs the
 * handlers left on the exit list and then ends the process, so a thread
 * that finds the list empty would end it while another still writes the
 * profile. So at_exit is on the list EXIT_GUARDS + 1 times. The first
 * thread to reach one of them writes the profile; every other thread
 * that reaches one waits there until the profile is written, then
 * flushes stdio and ends the process with its own exit status. The list
 * cannot run empty before the profile is written unless more than
 * EXIT_GUARDS threads call exit() at the same moment.
 *
 * No thread returns from at_exit into the list walk it came from: glibc's
 * walk keeps a pointer to a block of the list that a concurrent walk may
 * free meanwhile. The first thread instead calls exit() again, which
 * glibc allows from a handler: the new walk starts afresh from the head
 * of the list, runs the handlers left (at_exit's other entries return at
 * once) and ends the process.
 */
static pthread_t fin_thread; /* the thread that ends the run by exit() */
static int fin_by_exit;

static void at_exit(int status, void *arg)
{
	(void)arg;
	if (foreign())
		return;
	if (claim()) {
		fin_thread = pthread_self();
		__atomic_store_n(&fin_by_exit, 1, __ATOMIC_SEQ_CST);
		finish("exit", 0);
		mark_done();
		exit(status);
	}
	wait_done(-1);
	if (__atomic_load_n(&fin_by_exit, __ATOMIC_SEQ_CST) && pthread_equal(fin_thread, pthread_self()))
		return; /* the first thread's second walk */
	fflush(NULL);
	_exit(status);
}

/* ---------------------------------------------------------------------
 * Signals, where the program starts with their default action (a
 * handler it installs later replaces ours, as it should; one it inherits
 * as ignored stays ignored):
 *
 *   SIGINT, SIGTERM, SIGHUP: the handler reports the signal to the
 *     control goroutine and returns; the goroutine writes the profile,
 *     best effort while the program's threads still run, and ends the
 *     process by the same signal. A second such signal kills at once.
 *   SIGPIPE: the same, but the thread that wrote to the closed pipe waits
 *     in the handler, so that it cannot fail again and again meanwhile.
 *   SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL (crashes): the crashing
 *     thread reports the signal and waits (at most SIGNAL_WAIT_MS) while
 *     the goroutine writes the profile so far; then the default action is
 *     restored and the thread returns to the faulting instruction (or,
 *     for a signal sent by kill() or abort(), raises it again), so that
 *     the process dies by the signal on the thread that caused it, and a
 *     core dump shows that thread.
 *
 * In a forked child the handler writes the child's snapshot itself, then
 * dies by the signal. The Go runtime also handles SIGSEGV, SIGBUS, SIGFPE
 * and SIGPIPE; it passes those that arrive outside Go code on to the
 * handlers it found, which are these.
 */
static int sig_seen;  /* SIGINT, SIGTERM or SIGHUP seen */
static int reported;  /* a signal was reported to the goroutine */

static const int sig_ending[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static const int sig_crash[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};

static int is_crash(int sig)
{
	for (size_t i = 0; i < sizeof sig_crash / sizeof sig_crash[0]; i++)
		if (sig_crash[i] == sig)
			return 1;
	return 0;
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGPIPE:
		return "SIGPIPE";
	case SIGABRT:
		return "SIGABRT";
	case SIGSEGV:
		return "SIGSEGV";
	case SIGBUS:
		return "SIGBUS";
	case SIGFPE:
		return "SIGFPE";
	case SIGILL:
		return "SIGILL";
	}
	return "signal";
}

static void default_action(int sig)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void die_by(int sig)
{
	default_action(sig);
	raise(sig); /* delivered when the handler returns */
}

/* report_signal tells the control goroutine that sig ends the run; only
 * the first report counts. */
static int report_signal(int sig)
{
	unsigned char b = (unsigned char)sig;
	if (__atomic_exchange_n(&reported, 1, __ATOMIC_SEQ_CST))
		return 1; /* already reported; its end is under way */
	return send(ctl[1], &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) == 1;
}

static void on_signal(int sig)
{
	int saved = errno;
	if (foreign()) {
		die_by(sig);
	} else if (forked()) {
		if (sig == SIGPIPE || __atomic_fetch_add(&sig_seen, 1, __ATOMIC_SEQ_CST) == 0)
			end_run(signal_name(sig), sig, SIGNAL_WAIT_MS);
		die_by(sig);
	} else if (sig == SIGPIPE) {
		if (!report_signal(sig) || !wait_done(SIGNAL_WAIT_MS))
			say("gopari: the profile was not written in time; ", -1, "", -1, "SIGPIPE ends the run\n");
		die_by(sig); /* normally the goroutine has ended the process */
	} else if (__atomic_fetch_add(&sig_seen, 1, __ATOMIC_SEQ_CST) > 0 || !report_signal(sig)) {
		die_by(sig);
	}
	errno = saved;
}

static void on_crash(int sig, siginfo_t *si, void *ctx)
{
	int saved = errno;
	(void)ctx;
	if (forked()) {
		end_run(signal_name(sig), sig, SIGNAL_WAIT_MS);
	} else if (!foreign() && __atomic_load_n(&fin_state, __ATOMIC_SEQ_CST) != FIN_DONE) {
		if (!report_signal(sig) || !wait_done(SIGNAL_WAIT_MS))
			say("gopari: the profile was not written in time; ", -1, signal_name(sig), -1, " ends the run\n");
	}
	default_action(sig);
	if (si == NULL || si->si_code <= 0)
		raise(sig); /* sent, not caused: delivered on return */
	errno = saved;
}

static void catch_signals(void)
{
	for (size_t i = 0; i < sizeof sig_ending / sizeof sig_ending[0] + sizeof sig_crash / sizeof sig_crash[0]; i++) {
		int nend = (int)(sizeof sig_ending / sizeof sig_ending[0]);
		int sig = (int)i < nend ? sig_ending[i] : sig_crash[i - nend];
		struct sigaction old, sa;
		if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
			continue; /* ignored, or the program's own */
		memset(&sa, 0, sizeof sa);
		sigemptyset(&sa.sa_mask);
		if (is_crash(sig)) {
			sa.sa_sigaction = on_crash;
			sa.sa_flags = SA_SIGINFO;
		} else {
			sa.sa_handler = on_signal;
			sa.sa_flags = SA_RESTART;
		}
		sigaction(sig, &sa, NULL);
	}
}

int pomp_control_fd(void) { return ctl[0]; }

/* pomp_signal_exit ends the run for sig, reported by the handler; the
 * control goroutine calls it. It writes the profile, best effort while
 * the program's threads may still run (events stop being recorded
 * first). For a crash it then returns: the crashing thread, waiting in
 * the handler, dies by the signal. Otherwise it ends the process by sig
 * with its default action. If exit() is already writing the profile, it
 * returns at once and lets that exit finish. It returns whether it wrote
 * the profile. */
int pomp_signal_exit(int sig)
{
	if (!claim())
		return 0;
	pomp_mode = POMP_MODE_OFF;
	finish(signal_name(sig), sig);
	mark_done();
	if (is_crash(sig))
		return 1;
	default_action(sig);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* should the signal not end the process */
}

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
	/* park_mu first: a thread holding it may take mu (rt.c). */
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
	fork_pid = getpid();
	if (fork_depth < FORK_CHAIN)
		fork_chain[fork_depth] = (int)fork_pid;
	fork_depth++;
	if (ctl[0] >= 0) {
		close(ctl[0]); /* only the root reads it */
		ctl[0] = -1;
	}
	/* Forked while the parent was ending: the child writes nothing. */
	if (fin_state != FIN_NONE)
		fin_state = FIN_DONE;
	sig_seen = 0;
	reported = 0;
	reset_after_fork();
}

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
	int32_t chain[FORK_CHAIN];
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

/* write_snapshot writes this process's state; it returns 0 on success. */
static int write_snapshot(int fd, int sig)
{
	static snap_writer w; /* one writer: the run ends once */
	w.fd = fd;
	w.err = 0;
	w.n = 0;
	uint32_t nregions = pomp_g.nregions, nlocs = pomp_g.nlocs;
	pomp_loc **locs = pomp_g.locs;
	POMP_Region **regions = pomp_g.regions;
	struct snap_hdr h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, SNAP_MAGIC, 8);
	h.size_hdr = sizeof h;
	h.size_region = sizeof(POMP_Region);
	h.size_loc = sizeof(pomp_loc);
	h.size_stat = sizeof(pomp_stat);
	h.size_thr = sizeof(pomp_thr);
	h.pid = (int32_t)getpid();
	h.ppid = (int32_t)getppid();
	h.sig = sig;
	h.mode = pomp_g.mode;
	h.use_tsc = pomp_g.use_tsc;
	h.depth = fork_depth;
	memcpy(h.chain, fork_chain, sizeof h.chain);
	h.nregions = nregions;
	h.nlocs = nlocs;
	for (pomp_thr *t = pomp_g.threads; t; t = t->next)
		h.nthreads++;
	h.start_ns = pomp_g.ns0;
	h.end_ns = pomp_ns();
	for (uint32_t id = 1; id <= nregions; id++) {
		const char *s[4];
		region_strings(regions[id], s);
		for (int k = 0; k < 4; k++)
			if (s[k])
				h.strings += strlen(s[k]) + 1;
	}
	h.strings = (h.strings + 7) & ~(uint64_t)7;
	sw_put(&w, &h, sizeof h);
	uint64_t off = 0;
	for (uint32_t id = 1; id <= nregions; id++) {
		POMP_Region r = *regions[id];
		const char *s[4];
		const char **f[4] = {&r.file, &r.name, &r.sub_name, &r.clauses};
		region_strings(regions[id], s);
		for (int k = 0; k < 4; k++) {
			*f[k] = s[k] ? (const char *)(uintptr_t)(off + 1) : NULL;
			if (s[k])
				off += strlen(s[k]) + 1;
		}
		sw_put(&w, &r, sizeof r);
	}
	for (uint32_t id = 1; id <= nregions; id++) {
		const char *s[4];
		region_strings(regions[id], s);
		for (int k = 0; k < 4; k++)
			if (s[k])
				sw_put(&w, s[k], strlen(s[k]) + 1);
	}
	static const char zeros[8];
	sw_put(&w, zeros, h.strings - off);
	for (uint32_t i = 0; i < nlocs; i++) {
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
	if (ctl[1] < 0 || getsockopt(ctl[1], SOL_SOCKET, SO_PEERCRED, &cr, &crlen) != 0 || cr.pid != root_pid) {
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
		if (sendmsg(ctl[1], &msg, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)sizeof m)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -1;
		/* The root is busy with other children's snapshots. */
		struct pollfd p = {.fd = ctl[1], .events = POLLOUT};
		if (poll(&p, 1, SIGNAL_WAIT_MS) <= 0)
			return -1;
	}
}

/* child_finish hands the state of a forked child to the root; ts is the
 * end of its run. */
static void child_finish(int sig, uint64_t ts)
{
	if (pomp_g.mode == POMP_MODE_OFF || pomp_g.nregions == 0)
		return;
	if (sig == 0)
		pthread_mutex_lock(&pomp_g.mu); /* not from a signal handler */
	close_calls(ts);
	int fd = ctl[1] < 0 ? -1 : memfd_create("gopari-fork", MFD_CLOEXEC);
	int ok = fd >= 0 && write_snapshot(fd, sig) == 0;
	if (sig == 0)
		pthread_mutex_unlock(&pomp_g.mu);
	int sent = ok ? send_fd(fd) : -1, err = errno;
	if (fd >= 0)
		close(fd);
	if (sent == 0)
		return;
	if (!ok)
		say("gopari: process ", (long)getpid(), " writes no profile: its snapshot could not be written", -1, "\n");
	else if (err == EBADF)
		say("gopari: process ", (long)getpid(), " writes no profile: its channel to the process it was forked from (", (long)root_pid,
		    "), which writes it, was closed\n");
	else
		say("gopari: process ", (long)getpid(), " writes no profile: the process it was forked from (", (long)root_pid,
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
	s->depth = h->depth < FORK_CHAIN ? h->depth : FORK_CHAIN;
	for (int i = 0; i < s->depth; i++)
		s->chain[i] = h->chain[i];
	s->start_ns = h->start_ns;
	s->end_ns = h->end_ns;
	s->exit = h->sig ? signal_name(h->sig) : "exit";
	pomp_rt *g = &s->rt;
	pthread_mutex_init(&g->mu, NULL);
	g->mode = h->mode;
	g->use_tsc = h->use_tsc;
	g->ns0 = h->start_ns;
	g->nregions = h->nregions;
	g->nlocs = h->nlocs;
	g->regions = calloc((size_t)h->nregions + 1, sizeof *g->regions);
	g->locs = calloc(h->nlocs ? h->nlocs : 1, sizeof *g->locs);
	if (!g->regions || !g->locs)
		goto bad;
	void *rp, *strp;
	if ((uint64_t)h->nregions * sizeof(POMP_Region) > (uint64_t)(end - p) ||
	    snap_take(&p, end, h->nregions * sizeof(POMP_Region), &rp) != 0 || h->strings > (uint64_t)(end - p) ||
	    snap_take(&p, end, h->strings, &strp) != 0)
		goto bad;
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
	for (uint32_t i = 0; i < h->nlocs; i++) {
		void *lp, *sp;
		if (snap_take(&p, end, sizeof(pomp_loc), &lp) != 0)
			goto bad;
		pomp_loc *l = lp;
		if (l->parent >= h->nlocs || (uint64_t)l->nstat * sizeof(pomp_stat) > (uint64_t)(end - p) ||
		    snap_take(&p, end, l->nstat * sizeof(pomp_stat), &sp) != 0)
			goto bad;
		l->stat = sp;
		for (uint32_t k = 0; k < l->nstat; k++) {
			pomp_stat *st = &l->stat[k];
			void *ep = NULL;
			if (st->nedges &&
			    ((uint64_t)st->nedges * sizeof(pomp_edge) > (uint64_t)(end - p) ||
			     snap_take(&p, end, st->nedges * sizeof(pomp_edge), &ep) != 0))
				goto bad;
			st->edges = ep;
			st->capedges = st->nedges;
		}
		l->children = NULL;
		l->nchildren = 0;
		l->index = i;
		g->locs[i] = l;
	}
	pomp_thr **tail = &g->threads;
	for (uint32_t i = 0; i < h->nthreads; i++) {
		void *tp, *ip;
		if (snap_take(&p, end, sizeof(pomp_thr), &tp) != 0)
			goto bad;
		pomp_thr *t = tp;
		if (t->nids > (uint64_t)(end - p) / sizeof(uint64_t) || snap_take(&p, end, t->nids * sizeof(uint64_t), &ip) != 0)
			goto bad;
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

int pomp_fork_depth(void) { return fork_depth; }

/* ---------------------------------------------------------------------
 * Initialisation.
 */
static void init_once(void)
{
	const char *m = getenv("GOPARI_MODE");
	int mode = POMP_MODE_PROFILE;
	if (m && *m) {
		if (!strcmp(m, "off"))
			mode = POMP_MODE_OFF;
		else if (!strcmp(m, "ids"))
			mode = POMP_MODE_IDS;
		else if (!strcmp(m, "profile") || !strcmp(m, "trace")) /* trace: events.c */
			mode = POMP_MODE_PROFILE;
		else
			fprintf(stderr, "gopari: GOPARI_MODE=%s is not off, ids, profile or trace; using profile\n", m);
	}
	if (mode == POMP_MODE_IDS && getenv("GOPARI_RECORD_IDS") && *getenv("GOPARI_RECORD_IDS"))
		mode = POMP_MODE_RECORD; /* a test switch: keep every task ID */
	pomp_clock_start(!(getenv("GOPARI_CLOCK") && !strcmp(getenv("GOPARI_CLOCK"), "monotonic")));
	pomp_set_mode(mode);
	root_pid = getpid();
	if (mode != POMP_MODE_OFF) {
		pomp_self(); /* the initial thread gets index 0 */
		for (int i = 0; i <= EXIT_GUARDS; i++)
			on_exit(at_exit, NULL);
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl) != 0)
			ctl[0] = ctl[1] = -1;
		pthread_atfork(fork_prepare, fork_parent, fork_child);
		if (ctl[0] >= 0)
			catch_signals();
	}
}

void pomp_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, init_once);
}

/* Runs before the constructors of the program (priority 101), so that
 * events from C++ static initializers are counted. */
__attribute__((constructor(101))) static void pomp_ctor(void) { pomp_init(); }

void POMP_Init(void) { pomp_init(); }
