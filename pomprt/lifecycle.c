
/*
 * lifecycle.c — how a measured process starts, forks and ends: the
 * initialisation before the program's constructors, exit() from any
 * thread, the signals that end a run, and fork() without exec. The
 * per-event work is in the files core.h lists; signals.c, fork.c and
 * snapshot.c hold the signal handlers, the fork handlers and a forked
 * child's snapshot.
 *
 * ONE FINALISATION PATH. A run ends once, through pomp_end_run(), whatever
 * ends it: a return from main or exit() from any thread (at_exit), a
 * caught signal (pomp_signal_exit, on the Go side's control goroutine),
 * a crash, or MPI_Abort (pomp_end_run_as). The first caller claims the run (pomp_fin_state NONE -> RUNNING)
 * and writes the results; every later caller waits until they are
 * written (DONE) and then carries on ending the process. Anything that
 * must happen at the end of a run (flushing buffers, writing files) goes
 * into pomp_finish() below, and nowhere else.
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
 * the root's control goroutine reads pomp_ctl[0]; pomp_ctl[1] carries a one-byte
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
#include "core.h"
#include "lifecycle.h"

/* ---------------------------------------------------------------------
 * The state of the run's end (lifecycle.h).
 */
int pomp_fin_state;
pid_t pomp_root_pid;
pid_t pomp_fork_pid;
int pomp_ctl[2] = {-1, -1};
int pomp_fork_chain[POMP_FORK_CHAIN];
int pomp_fork_level;

/* The number of threads that can be inside exit() at one time while the
 * profile is written; see at_exit. */
#define EXIT_GUARDS 64

int pomp_claim(void)
{
	int none = FIN_NONE;
	if (!__atomic_compare_exchange_n(&pomp_fin_state, &none, FIN_RUNNING, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return 0;
	pomp_g.finalized = 1;
	return 1;
}

void pomp_mark_done(void)
{
	__atomic_store_n(&pomp_fin_state, FIN_DONE, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &pomp_fin_state, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* wait_done waits until the run's results are written, for at most
 * timeout_ms (forever if negative), and returns whether they were. It is
 * async-signal-safe. */
int pomp_wait_done(int timeout_ms)
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
	while ((v = __atomic_load_n(&pomp_fin_state, __ATOMIC_SEQ_CST)) != FIN_DONE) {
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
		syscall(SYS_futex, &pomp_fin_state, FUTEX_WAIT_PRIVATE, v, tp, NULL, 0);
	}
	return 1;
}

/* say writes a message to stderr, async-signal-safely. */
void pomp_say(const char *a, long n1, const char *b, long n2, const char *c)
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

/* close_calls closes, at ts, the MPI calls that the end of the run
 * interrupts (a thread blocked in MPI_Recv when SIGTERM comes, the
 * caller's own MPI_Abort): each keeps its visit, and its time up to ts,
 * in its region's statistics, as if it had returned then. A call that
 * returns meanwhile finds it closed and leaves its frame alone
 * (pomp_call_end). The caller holds pomp_g.mu, or is a signal handler
 * in a forked child. */
void pomp_close_calls(uint64_t ts)
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
void pomp_finish(const char *exit, int sig)
{
	if (!forked())
		pomp_sample_stop(); /* before the run's end is measured: no sample of the finish */
	uint64_t ts = pomp_now();
	if (sig == 0 && !forked()) /* not in a signal handler: the probe may take the tree's lock */
		pomp_cp_cost_ticks = pomp_cp_cost(pomp_self_tls, &pomp_cp_cost_pairs);
	pomp_rt_close(!forked()); /* what the run leaves open, for the stream and the profile */
	if (forked()) {
		pomp_child_finish(sig, ts);
	} else {
		pthread_mutex_lock(&pomp_g.mu);
		pomp_close_calls(ts);
		pthread_mutex_unlock(&pomp_g.mu);
		pomp_ev_finish(); /* the event stream first: the profile says what it holds */
		pompGoFinalize((char *)exit);
	}
}

/* end_run ends the run once (see the top of this file); a caller that
 * comes second waits at most timeout_ms for the first (forever if
 * negative). */
void pomp_end_run(const char *exit, int sig, int timeout_ms)
{
	if (foreign())
		return;
	if (!pomp_claim()) {
		pomp_wait_done(timeout_ms);
		return;
	}
	pomp_finish(exit, sig);
	pomp_mark_done();
}

void pomp_finalize_now(void) { pomp_end_run("exit", 0, -1); }

void pomp_end_run_as(const char *exit)
{
	if (foreign())
		return;
	if (!pomp_claim()) {
		pomp_wait_done(SIGNAL_WAIT_MS); /* exit() or a signal is ending it */
		return;
	}
	pomp_mode = POMP_MODE_OFF; /* other threads may still run: they stop recording */
	pomp_finish(exit, 0);
	pomp_mark_done();
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
	if (pomp_claim()) {
		fin_thread = pthread_self();
		__atomic_store_n(&fin_by_exit, 1, __ATOMIC_SEQ_CST);
		pomp_finish("exit", 0);
		pomp_mark_done();
		exit(status);
	}
	pomp_wait_done(-1);
	if (__atomic_load_n(&fin_by_exit, __ATOMIC_SEQ_CST) && pthread_equal(fin_thread, pthread_self()))
		return; /* the first thread's second walk */
	fflush(NULL);
	_exit(status);
}

/* ---------------------------------------------------------------------
 * Initialisation.
 */
static void init_once(void)
{
	pomp_env_read();
	int mode = pomp_env_mode();
	pomp_clock_start(pomp_env_value(ENV_CLOCK) != ENV_CLOCK_MONOTONIC);
	pomp_set_mode(mode);
	pomp_root_pid = getpid();
	if (mode != POMP_MODE_OFF) {
		pomp_self(); /* the initial thread gets index 0 */
		for (int i = 0; i <= EXIT_GUARDS; i++)
			on_exit(at_exit, NULL);
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pomp_ctl) != 0)
			pomp_ctl[0] = pomp_ctl[1] = -1;
		pomp_fork_watch();
		if (pomp_ctl[0] >= 0)
			pomp_catch_signals();
		pomp_sample_start(pomp_self());
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

/* ---------------------------------------------------------------------
 * What the run leaves open when it ends.
 */
/* end_left ends the C taskloop tasks on top of thread t whose end was
 * not seen, from the thread that ends the run: all of its own, and of
 * another thread those it ran in the closing barrier of a team that has
 * joined since, which a worker only ends when a later team recruits it.
 * end_taskloop writes the current handle of the calling thread: it is
 * kept. */
static void end_left(pomp_thr *t, int own, uint64_t ts)
{
	POMP_Task_handle cur = pomp_thread.current;
	while (t->nfr > 1 && t->task == t->nfr - 1 && tl_pending(&t->fr[t->task])) {
		pomp_frame *f = &t->fr[t->task];
		if (!own) {
			if (!f->team_seq)
				break;
			pomp_loc *p = pomp_g.locs[pomp_g.locs[f->saved_loc]->parent];
			/* The teams forked there join in the order they were
			 * forked: a later one joined means that its did too. */
			if (__atomic_load_n(&p->join_seq, __ATOMIC_ACQUIRE) < f->team_seq)
				break; /* its team is still on: the thread may go on */
		}
		pomp_end_taskloop(t, ts, 0);
	}
	pomp_thread.current = cur;
}

/* initial_own returns the own time of t's initial task until ts. */
static uint64_t initial_own(const pomp_thr *t, uint64_t ts)
{
	const pomp_frame *f = &t->fr[0];
	if (t->nfr == 1 && ts >= f->last)
		return own_time(f, ts);
	return f->excl > f->est ? f->excl - f->est : 0;
}

void pomp_rt_close(int others)
{
	uint64_t ts, end_ns;
	pomp_clock_pair(&ts, &end_ns); /* one moment: the wall time and the last times agree */
	pomp_g.end_ns = end_ns;
	if (pomp_g.mode != POMP_MODE_PROFILE)
		return;
	/* The list only grows at its head, and may be read without the lock
	 * (a forked child ends here in a signal handler). */
	pomp_thr *all = __atomic_load_n(&pomp_g.threads, __ATOMIC_ACQUIRE);
	pomp_thr *me = pomp_self_tls;
	pomp_cp_flush(me, ts);
	for (pomp_thr *t = all; t; t = t->next) {
		if (t == me) {
			end_left(t, 1, ts);
			continue;
		}
		if (!others)
			continue;
		if (!__atomic_load_n(&t->close_pending, __ATOMIC_ACQUIRE))
			continue; /* it left no taskloop task in a closing barrier */
		__atomic_store_n(&t->closing, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&t->recruiting, __ATOMIC_SEQ_CST) && __atomic_load_n(&t->close_pending, __ATOMIC_SEQ_CST)) {
			end_left(t, 0, ts);
			__atomic_store_n(&t->close_pending, 0, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&t->closing, 0, __ATOMIC_RELEASE);
	}
	uint32_t nlocs = __atomic_load_n(&pomp_g.nlocs, __ATOMIC_ACQUIRE);
	for (pomp_thr *t = all; t; t = t->next) {
		if ((t != me && !others) || t->nfr < 1 || t->fr[0].kind != FR_ROOT)
			continue;
		for (uint32_t i = 0; i < nlocs; i++) {
			pomp_loc *l = pomp_g.locs[i];
			if (l->level == 0 && l->num == t->index) {
				l->initial_own = initial_own(t, ts);
				break;
			}
		}
	}
}
