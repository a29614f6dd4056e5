/*
 * lifecycle.h — the state of a run's end, private to the files that
 * start, end and fork a run: lifecycle.c (start-up, exit, the one
 * finalisation path), signals.c, fork.c and snapshot.c.
 */
#ifndef POMP_LIFECYCLE_H
#define POMP_LIFECYCLE_H

#include <sys/types.h>
#include <unistd.h>
#include "rt.h"

enum { FIN_NONE = 0, FIN_RUNNING, FIN_DONE };
extern int pomp_fin_state;  /* futex word */
extern pid_t pomp_root_pid; /* the process whose Go runtime works */
extern pid_t pomp_fork_pid; /* set in a child made by fork() */
extern int pomp_ctl[2];     /* the control socket pair */

/* The pids of the forks between the root and this process, oldest
 * first; they name the child's experiment directory. */
extern int pomp_fork_chain[POMP_FORK_CHAIN];
extern int pomp_fork_level;

/* Waits for the end of a run that another thread is finishing, or that
 * a signal is finishing. Crash signals and SIGPIPE wait at most this
 * long, in case the thread that crashed holds what the writer needs. */
#define SIGNAL_WAIT_MS 10000

static inline int forked(void) { return pomp_fork_pid != 0 && getpid() == pomp_fork_pid; }

/* foreign reports a process that shares this memory or a copy of it but
 * was made without the fork handlers (vfork, clone): it must not touch
 * the run's state. */
static inline int foreign(void) { return getpid() != pomp_root_pid && !forked(); }

/* lifecycle.c */
int pomp_claim(void);
void pomp_mark_done(void);
int pomp_wait_done(int timeout_ms);
void pomp_say(const char *a, long n1, const char *b, long n2, const char *c);
void pomp_close_calls(uint64_t ts);
void pomp_finish(const char *exit, int sig);
void pomp_end_run(const char *exit, int sig, int timeout_ms);

/* signals.c */
const char *pomp_signal_name(int sig);
void pomp_catch_signals(void);
void pomp_signals_after_fork(void);

/* fork.c */
void pomp_fork_watch(void);

/* snapshot.c */
void pomp_child_finish(int sig, uint64_t ts);

#endif
