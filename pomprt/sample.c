/*
 * sample.c — sampled call paths (GOPARI_SAMPLE_HZ): each thread that
 * enters the runtime is interrupted N times per second of its CPU time
 * (GOPARI_SAMPLE_CLOCK=cpu, the default) or of the wall clock (wall:
 * blocked threads too), and its stack is unwound there.
 *
 * TIMERS. A thread's own timer (timer_create on its CPU clock, or on
 * CLOCK_MONOTONIC, delivered to it alone with SIGEV_THREAD_ID) is armed
 * when the thread registers (threads.c), the initial thread's at
 * start-up. The signal is a real-time one, SIGRTMIN+3 unless
 * GOPARI_SAMPLE_SIGNAL says another: a program's own SIGPROF, its
 * setitimer and its timers are left alone. The handler is installed
 * with SA_RESTART. The kernel checks CPU-time timers at its tick
 * (CONFIG_HZ: 250 on Debian's kernels), so at 1000 Hz a signal comes
 * every 4 ms with 3 overruns: the handler reads the timer's clock and
 * charges the time since the thread's previous sample, so that what a
 * sample stands for is measured, not assumed.
 *
 * THE HANDLER allocates nothing, takes no lock and never reaches Go: it
 * saves errno, unwinds the interrupted context with libunwind
 * (unw_init_local2 with UNW_INIT_SIGNAL_FRAME on the handler's context,
 * then unw_step: DWARF CFI, so code built without frame pointers and
 * libgomp's frames unwind) into the next slot of the thread's ring of
 * samples, with the thread's location and its current call path: the
 * node of the call-path tree (callpath.c) that gopari's frames give, the
 * construct and task instance it runs. Sampling turns call paths on, so
 * that this node exists, and a task's node hangs below its creating
 * path. A thread in no task of its own (a worker between teams, or in a
 * closing barrier) has no path: the handler notes the region of its
 * implicit task instead.
 *
 * FOLDING happens off the handler: a helper thread drains every ring
 * as often as half a ring fills at the rate asked (fold_ms) into one table of distinct samples (location, path,
 * program counters) with their weights, so memory grows with the
 * distinct stacks, not with the run's length; at the end of the run the
 * timers are deleted, the rings drained once more, and Go (sample.go)
 * folds the table into the call-path tree: program counters become
 * function frames, the frames of OpenMP outlined functions and of the
 * OpenMP runtime become the construct's frame.
 *
 * LIBUNWIND is loaded with dlopen when sampling starts, not linked:
 * libunwind.so also defines _Unwind_* and backtrace, which would
 * otherwise take over C++ exceptions and glibc's backtrace in every
 * program, sampled or not. A program that does not sample never loads
 * it; one that does and cannot find it is told so once.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <errno.h>
#include <libunwind.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "core.h"
#include "sample.h"

#define RING 256   /* samples per thread between two folds: 2.5 folds at 10 kHz */
#define FOLD_MS 20 /* how often the helper folds at least, in ms */
#define FOLD_MAX_MS 200 /* ... and at most: a ring half full at the rate asked */
#define SAMPLE_TRACE_MAX (1u << 24) /* samples kept for the trace: 256 MiB at most */

/* A thread's samples: written by its handler, read by the folder. */
typedef struct pomp_sthr {
	uint32_t head;  /* written by the handler */
	uint32_t tail;  /* written by the folder */
	int busy;       /* the handler runs (a nested signal returns) */
	int armed;
	timer_t timer;
	clockid_t clock; /* the timer's clock */
	uint64_t last;   /* its reading at the previous sample */
	uint64_t dropped; /* the ring was full */
	uint64_t signals, handler; /* signals handled, ns of the timer's clock spent handling them */
	struct pomp_sthr *next;
	pomp_srec ring[RING];
} pomp_sthr;

static __thread pomp_sthr *s_self __attribute__((tls_model("initial-exec")));
static pomp_sthr *s_threads; /* every thread's, pushed atomically */

pomp_sampling pomp_sg;

/* libunwind, through dlopen. */
static int (*u_init2)(unw_cursor_t *, unw_context_t *, int);
static int (*u_step)(unw_cursor_t *);
static int (*u_get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
static int (*u_backtrace)(void **, int);

int pomp_unwind_register(void (*reg)(unw_dyn_info_t *)); /* unwreg.c */

#define STR2(x) #x
#define STR(x) STR2(x)

static int load_libunwind(void)
{
	void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		h = dlopen("libunwind.so", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "gopari: GOPARI_SAMPLE_HZ: libunwind cannot be loaded (%s; Debian: apt-get install libunwind8); nothing is sampled\n", dlerror());
		return 0;
	}
	*(void **)&u_init2 = dlsym(h, STR(unw_init_local2));
	*(void **)&u_step = dlsym(h, STR(unw_step));
	*(void **)&u_get_reg = dlsym(h, STR(unw_get_reg));
	*(void **)&u_backtrace = dlsym(h, "unw_backtrace");
	/* Each thread caches what it learnt of the code it unwound, without
	 * the global cache's lock; warm_up makes its first use outside a
	 * handler. */
	void (*reg)(unw_dyn_info_t *);
	*(void **)&reg = dlsym(h, "_U_dyn_register");
	pomp_sg.tables = pomp_unwind_register(reg); /* lookups without the loader's walk (unwreg.c) */
	unw_addr_space_t *as = dlsym(h, STR(unw_local_addr_space));
	int (*policy)(unw_addr_space_t, unw_caching_policy_t);
	*(void **)&policy = dlsym(h, STR(unw_set_caching_policy));
	if (as && policy)
		policy(*as, UNW_CACHE_PER_THREAD);
	if (!u_init2 || !u_step || !u_get_reg) {
		fprintf(stderr, "gopari: GOPARI_SAMPLE_HZ: libunwind lacks unw_init_local2 (version 1.3 or later needed); nothing is sampled\n");
		return 0;
	}
	return 1;
}

#define BT_EXTRA 8 /* frames above the interrupted one: the handler's, the signal's */

/* fast_unwind writes the program counters of context uc into r with
 * unw_backtrace, which keeps a per-thread cache of how each address
 * unwinds, from the handler's own frame: the frames above the
 * interrupted one are dropped. 0 if the interrupted address is not
 * among them. */
static int fast_unwind(pomp_srec *r, ucontext_t *uc)
{
	void *buf[SAMPLE_DEPTH + BT_EXTRA];
	int n = u_backtrace(buf, SAMPLE_DEPTH + BT_EXTRA);
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	for (int i = 0; i < n && i < BT_EXTRA; i++) {
		if ((uintptr_t)buf[i] != pc)
			continue;
		int m = n - i < SAMPLE_DEPTH ? n - i : SAMPLE_DEPTH;
		for (int k = 0; k < m; k++)
			r->pc[k] = (uint64_t)(uintptr_t)buf[i + k];
		r->depth = (uint16_t)m;
		r->truncated = n == SAMPLE_DEPTH + BT_EXTRA && m == SAMPLE_DEPTH;
		return 1;
	}
	return 0;
}

/* unwind_locked writes the program counters of context uc into r (the
 * caller unwinds alone: unwind). */
static void unwind_locked(pomp_srec *r, ucontext_t *uc)
{
	if (u_backtrace && fast_unwind(r, uc))
		return;
	unw_cursor_t cur;
	int n = 0;
	if (u_init2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) == 0) {
		do {
			unw_word_t ip;
			if (u_get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0)
				break;
			r->pc[n++] = ip;
		} while (n < SAMPLE_DEPTH && u_step(&cur) > 0);
	}
	r->depth = (uint16_t)n;
	r->truncated = n == SAMPLE_DEPTH;
}

/* One thread unwinds at a time. libunwind takes a lock of its own and
 * then the loader's (dl_iterate_phdr); a thread interrupted while it
 * holds the loader's (in dlopen or dlclose: Open MPI's MPI_Finalize
 * closes its components) would wait in its handler for libunwind's lock,
 * held by another thread's handler that waits for the loader: both hung
 * (TestSampledJobTrace, once in a few runs on a loaded machine). A
 * handler that finds another thread unwinding waits for it (threads'
 * CPU-time timers fire at the same tick: they meet often, for the few
 * microseconds an unwinding takes); after UNWIND_WAIT_NS it drops the
 * sample and returns, which lets the loader go. */
#define UNWIND_WAIT_NS 10000000
static int unwinding;

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int unwind_begin(uint64_t wait_ns)
{
	if (!__atomic_exchange_n(&unwinding, 1, __ATOMIC_ACQUIRE))
		return 1;
	uint64_t t0 = mono_ns();
	do {
		for (int i = 0; i < 64; i++) {
			__builtin_ia32_pause();
			if (!__atomic_load_n(&unwinding, __ATOMIC_RELAXED) && !__atomic_exchange_n(&unwinding, 1, __ATOMIC_ACQUIRE))
				return 1;
		}
	} while (mono_ns() - t0 < wait_ns);
	return 0;
}

static void unwind_end(void) { __atomic_store_n(&unwinding, 0, __ATOMIC_RELEASE); }

/* unwind writes the program counters of context uc into r; 0 if it
 * could not (another thread unwound for UNWIND_WAIT_NS). */
static int unwind(pomp_srec *r, ucontext_t *uc)
{
	if (!unwind_begin(UNWIND_WAIT_NS))
		return 0;
	unwind_locked(r, uc);
	unwind_end();
	return 1;
}

/* where notes what t runs: its path; with none, the region of the
 * implicit task whose closing barrier it waits in; on the overflow path
 * (a full tree), its task's region and frame kind (SAMPLE_KIND). */
static void where(pomp_srec *r, const pomp_thr *t)
{
	r->node = CP_ROOT;
	r->loc = UINT32_MAX;
	r->region = 0;
	if (!t)
		return;
	if (t->has_loc)
		r->loc = t->loc;
	r->node = pomp_cp_current(t);
	if ((r->node == CP_NONE || r->node == CP_OVERFLOW) && t->task >= 0 && t->task < t->nfr) {
		const pomp_frame *f = &t->fr[t->task];
		if (r->node == CP_NONE && f->kind == FR_IMPLICIT && (f->flags & FL_CLOSING))
			r->region = f->region;
		else if (r->node == CP_OVERFLOW && f->kind != FR_ROOT && f->region < SAMPLE_KIND)
			r->region = f->region | (uint32_t)f->kind << SAMPLE_KIND_SHIFT;
	}
}

static uint64_t read_clock(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts); /* async-signal-safe */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_sample(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	int saved = errno;
	pomp_sthr *s = s_self;
	if (s && !s->busy) {
		uint64_t ts = now(), t0 = read_clock(s->clock);
		s->busy = 1;
		uint32_t h = s->head;
		if (h - __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE) >= RING) {
			s->dropped++;
		} else {
			pomp_srec *r = &s->ring[h & (RING - 1)];
			r->ts = ts;
			r->weight = 1 + (uint32_t)(si->si_overrun > 0 ? si->si_overrun : 0);
			r->ns = t0 - s->last;
			s->last = t0;
			where(r, pomp_self_tls);
			if (unwind(r, uc))
				__atomic_store_n(&s->head, h + 1, __ATOMIC_RELEASE);
			else
				s->dropped++; /* a path without its stack would mislead */
		}
		s->signals++;
		s->handler += read_clock(s->clock) - t0; /* the thread's CPU time in here, with the cpu clock */
		s->busy = 0;
	}
	errno = saved;
}

/* ---------------------------------------------------------------------
 * Timers.
 */
/* warm_up unwinds once on this thread outside a handler, so that
 * libunwind's first use (its caches, a dlopened library's thread-local
 * storage) does not happen in one. */
static void warm_up(void)
{
	ucontext_t uc;
	pomp_srec *r = calloc(1, sizeof *r);
	if (r && getcontext(&uc) == 0) {
		/* Outside a handler it may wait longer; not for ever: a thread
		 * that registers in a library's constructor holds the loader. */
		if (unwind_begin(50 * UNWIND_WAIT_NS)) {
			unwind_locked(r, &uc);
			unwind_end();
		}
	}
	free(r);
}

/* arm gives the calling thread its ring and its timer. */
static void arm(void)
{
	pomp_sthr *s = calloc(1, sizeof *s);
	if (!s)
		return;
	warm_up();
	struct sigevent sev;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = pomp_sg.signal;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	clockid_t clk = CLOCK_MONOTONIC;
	if (!pomp_sg.wall && pthread_getcpuclockid(pthread_self(), &clk) != 0) {
		free(s);
		return;
	}
	if (timer_create(clk, &sev, &s->timer) != 0) {
		free(s);
		return;
	}
	s->clock = clk;
	s->last = read_clock(clk);
	s->next = __atomic_load_n(&s_threads, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&s_threads, &s->next, s, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	s_self = s;
	struct itimerspec its;
	its.it_interval.tv_sec = 0;
	its.it_interval.tv_nsec = (long)pomp_sg.period_ns;
	if (pomp_sg.period_ns >= 1000000000ull) {
		its.it_interval.tv_sec = 1;
		its.it_interval.tv_nsec = 0;
	}
	its.it_value = its.it_interval;
	s->armed = timer_settime(s->timer, 0, &its, NULL) == 0;
}

/* pomp_sample_thread_new arms the timer of a thread that registers while
 * sampling is on (threads.c). */
void pomp_sample_thread_new(void)
{
	if (__atomic_load_n(&pomp_sg.on, __ATOMIC_ACQUIRE) == 1 && !s_self)
		arm();
}

/* ---------------------------------------------------------------------
 * Folding.
 */
static pthread_t folder;
static pthread_mutex_t fold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fold_cv = PTHREAD_COND_INITIALIZER;
static int fold_stop;

static uint64_t rec_hash(const pomp_srec *r)
{
	uint64_t h = ((uint64_t)r->loc << 32 | r->node) ^ ((uint64_t)r->region << 17) ^ r->depth;
	for (int i = 0; i < r->depth; i++)
		h = (h ^ r->pc[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static int same(const pomp_sfold *f, const pomp_srec *r)
{
	return f->loc == r->loc && f->node == r->node && f->region == r->region && f->depth == r->depth &&
	       !memcmp(f->pc, r->pc, r->depth * sizeof *r->pc);
}

static void grow_table(void)
{
	uint32_t cap = pomp_sg.hcap ? pomp_sg.hcap * 2 : 1024;
	uint32_t *h = calloc(cap, sizeof *h);
	pomp_sfold *f = realloc(pomp_sg.folds, (size_t)cap / 2 * sizeof *f);
	if (!h || !f)
		abort();
	pomp_sg.folds = f;
	for (uint32_t i = 0; i < pomp_sg.nfolds; i++) {
		uint32_t k = (uint32_t)f[i].hash & (cap - 1);
		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(pomp_sg.hash);
	pomp_sg.hash = h;
	pomp_sg.hcap = cap;
}

/* keep notes sample r, distinct sample i, for the trace (fold_mu held). */
static void keep(const pomp_srec *r, uint32_t i)
{
	if (pomp_sg.ntrace == pomp_sg.captrace) {
		uint64_t cap = pomp_sg.captrace ? 2 * pomp_sg.captrace : 4096;
		pomp_strace *a = cap <= SAMPLE_TRACE_MAX ? realloc(pomp_sg.trace, cap * sizeof *a) : NULL;
		if (!a) {
			pomp_sg.trace_lost++;
			return;
		}
		pomp_sg.trace = a;
		pomp_sg.captrace = cap;
	}
	pomp_sg.trace[pomp_sg.ntrace++] = (pomp_strace){i, r->loc, r->ts};
}

/* fold adds sample r to the table (fold_mu held), and to the trace in
 * trace mode. */
static void fold(const pomp_srec *r)
{
	if (pomp_sg.nfolds + 1 > pomp_sg.hcap / 2)
		grow_table();
	uint64_t hv = rec_hash(r);
	uint32_t k = (uint32_t)hv & (pomp_sg.hcap - 1);
	for (; pomp_sg.hash[k]; k = (k + 1) & (pomp_sg.hcap - 1)) {
		pomp_sfold *f = &pomp_sg.folds[pomp_sg.hash[k] - 1];
		if (f->hash == hv && same(f, r)) {
			f->weight += r->weight;
			f->ns += r->ns;
			if (pomp_g.ev_all)
				keep(r, pomp_sg.hash[k] - 1);
			return;
		}
	}
	pomp_sfold *f = &pomp_sg.folds[pomp_sg.nfolds];
	f->hash = hv;
	f->loc = r->loc;
	f->node = r->node;
	f->region = r->region;
	f->depth = r->depth;
	f->weight = r->weight;
	f->ns = r->ns;
	f->pc = malloc((r->depth ? r->depth : 1) * sizeof *f->pc);
	if (!f->pc)
		abort();
	memcpy(f->pc, r->pc, r->depth * sizeof *r->pc);
	pomp_sg.hash[k] = ++pomp_sg.nfolds;
	if (pomp_g.ev_all)
		keep(r, pomp_sg.nfolds - 1);
}

/* drain folds the samples every ring holds (fold_mu held). */
static void drain(void)
{
	for (pomp_sthr *s = __atomic_load_n(&s_threads, __ATOMIC_ACQUIRE); s; s = s->next) {
		uint32_t head = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
		for (uint32_t i = s->tail; i != head; i++) {
			const pomp_srec *r = &s->ring[i & (RING - 1)];
			pomp_sg.samples += r->weight;
			pomp_sg.ns += r->ns;
			pomp_sg.truncated += r->truncated;
			fold(r);
		}
		__atomic_store_n(&s->tail, head, __ATOMIC_RELEASE);
	}
}

/* fold_ms is how long the helper sleeps between two folds: the time the
 * rate asked for takes to fill half a ring (the kernel fires CPU-time
 * timers at its tick, so rings fill slower still), within FOLD_MS and
 * FOLD_MAX_MS. At 1000 Hz the helper wakes 8 times a second instead of
 * 50: at 2 threads on 2 cores each wake-up takes a core from the team. */
static long fold_ms(void)
{
	uint64_t hz = pomp_sg.hz ? pomp_sg.hz : 1;
	uint64_t ms = (uint64_t)(RING / 2) * 1000u / hz;
	return (long)(ms < FOLD_MS ? FOLD_MS : ms > FOLD_MAX_MS ? FOLD_MAX_MS : ms);
}

static void *fold_loop(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&fold_mu);
	while (!fold_stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += fold_ms() * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&fold_cv, &fold_mu, &ts);
		drain();
	}
	pomp_sg.fold_ns = read_clock(CLOCK_THREAD_CPUTIME_ID);
	pthread_mutex_unlock(&fold_mu);
	return NULL;
}

/* ---------------------------------------------------------------------
 * Start and stop.
 */
/* install sets the handler of the sampling signal; 0 if it cannot. */
static int install(void)
{
	uint64_t sig = pomp_env_value(ENV_SAMPLE_SIGNAL);
	pomp_sg.signal = sig ? (int)sig : SIGRTMIN + 3;
	int s = pomp_sg.signal;
	if (s == SIGKILL || s == SIGSTOP || (s > SIGSYS && s < SIGRTMIN) || s > SIGRTMAX) {
		fprintf(stderr, "gopari: GOPARI_SAMPLE_SIGNAL=%d is not a signal a program may catch (real-time signals are %d to %d); nothing is sampled\n",
		        s, SIGRTMIN, SIGRTMAX);
		return 0;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(pomp_sg.signal, &sa, NULL) == 0;
}

/* pomp_sample_start starts sampling, if GOPARI_SAMPLE_HZ asks for it,
 * from start-up on the initial thread t (lifecycle.c). */
void pomp_sample_start(pomp_thr *t)
{
	uint64_t hz = pomp_env_value(ENV_SAMPLE_HZ);
	if (!hz || pomp_g.mode != POMP_MODE_PROFILE)
		return;
	pomp_sg.hz = (uint32_t)hz;
	pomp_sg.period_ns = 1000000000ull / hz;
	pomp_sg.wall = pomp_env_value(ENV_SAMPLE_CLOCK) == ENV_SAMPLE_CLOCK_WALL;
	if (!load_libunwind() || !install())
		return;
	if (!pomp_cp_sampled(t)) /* the paths samples hang below */
		return;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old); /* the folder takes no signal of the program's */
	int ok = pthread_create(&folder, NULL, fold_loop, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ok)
		return;
	__atomic_store_n(&pomp_sg.on, 1, __ATOMIC_RELEASE);
	arm();
}

/* pomp_sample_stop deletes every timer, stops the folder and folds what
 * the rings still hold: at the end of the run, before the profile is
 * collected. Samples that arrive meanwhile are not folded. */
void pomp_sample_stop(void)
{
	if (__atomic_load_n(&pomp_sg.on, __ATOMIC_ACQUIRE) != 1)
		return;
	__atomic_store_n(&pomp_sg.on, 2, __ATOMIC_RELEASE);
	for (pomp_sthr *s = __atomic_load_n(&s_threads, __ATOMIC_ACQUIRE); s; s = s->next) {
		if (s->armed)
			timer_delete(s->timer);
		s->armed = 0;
	}
	pthread_mutex_lock(&fold_mu);
	fold_stop = 1;
	pthread_cond_signal(&fold_cv);
	pthread_mutex_unlock(&fold_mu);
	pthread_join(folder, NULL);
	pthread_mutex_lock(&fold_mu);
	drain();
	for (pomp_sthr *s = __atomic_load_n(&s_threads, __ATOMIC_ACQUIRE); s; s = s->next) {
		pomp_sg.dropped += s->dropped;
		pomp_sg.signals += s->signals;
		pomp_sg.handler += s->handler;
	}
	pthread_mutex_unlock(&fold_mu);
}
