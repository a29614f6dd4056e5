/*
 * signals.c — the signals that end a run: the handlers, and the control
 * goroutine's end of the run for a signal (lifecycle.c has the one
 * finalisation path they take).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rt.h"
#include "lifecycle.h"

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

const char *pomp_signal_name(int sig)
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
	return send(pomp_ctl[1], &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) == 1;
}

static void on_signal(int sig)
{
	int saved = errno;
	if (foreign()) {
		die_by(sig);
	} else if (forked()) {
		if (sig == SIGPIPE || __atomic_fetch_add(&sig_seen, 1, __ATOMIC_SEQ_CST) == 0)
			pomp_end_run(pomp_signal_name(sig), sig, SIGNAL_WAIT_MS);
		die_by(sig);
	} else if (sig == SIGPIPE) {
		if (!report_signal(sig) || !pomp_wait_done(SIGNAL_WAIT_MS))
			pomp_say("gopari: the profile was not written in time; ", -1, "", -1, "SIGPIPE ends the run\n");
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
		pomp_end_run(pomp_signal_name(sig), sig, SIGNAL_WAIT_MS);
	} else if (!foreign() && __atomic_load_n(&pomp_fin_state, __ATOMIC_SEQ_CST) != FIN_DONE) {
		if (!report_signal(sig) || !pomp_wait_done(SIGNAL_WAIT_MS))
			pomp_say("gopari: the profile was not written in time; ", -1, pomp_signal_name(sig), -1, " ends the run\n");
	}
	default_action(sig);
	if (si == NULL || si->si_code <= 0)
		raise(sig); /* sent, not caused: delivered on return */
	errno = saved;
}

void pomp_catch_signals(void)
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

/* pomp_signals_after_fork forgets, in a forked child, the signals its
 * parent saw. */
void pomp_signals_after_fork(void)
{
	sig_seen = 0;
	reported = 0;
}

int pomp_control_fd(void) { return pomp_ctl[0]; }

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
	if (!pomp_claim())
		return 0;
	pomp_mode = POMP_MODE_OFF;
	pomp_finish(pomp_signal_name(sig), sig);
	pomp_mark_done();
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
