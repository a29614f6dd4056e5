/* Sampled call paths (GOPARI_SAMPLE_HZ), with known truth: each part
 * spins for a known share of its thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
 * and prints what it measured of itself, summed over threads, in ns.
 *
 *   chain    in a parallel region, each thread: top spins S, calls mid,
 *            which spins S and calls leaf, which spins 2S
 *   tasks    creator(), called in a single region, creates NTASKS tasks
 *            that run taskwork(), which spins T each (a quarter of the
 *            chain's total in all)
 *   barrier  thread 0 spins B (an eighth of the chain's total) before an
 *            explicit barrier that the other
 *            threads reach at once (with OMP_WAIT_POLICY=active they
 *            busy-wait there)
 *   sigprof  the program's own SIGPROF handler and ITIMER_PROF, while
 *            the initial thread spins P: it prints how many it caught
 *
 * argv[1] is the total CPU seconds of the chain over all threads (4S per
 * thread). */
#include <omp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define NTASKS 16

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

volatile double sink;

/* burn spins for ns of this thread's CPU time, in its caller's frame
 * (inlined), and returns what it took. */
static inline __attribute__((always_inline)) uint64_t burn(uint64_t ns)
{
	uint64_t t0 = cpu_ns(), t;
	double x = 0;
	do {
		for (int i = 0; i < 2000; i++)
			x += i * 0.5;
		t = cpu_ns();
	} while (t - t0 < ns);
	sink += x;
	return t - t0;
}

static uint64_t spun_top, spun_mid, spun_leaf, spun_task, spun_wait, spun_p;

/* The empty asm after each call keeps the call a call: no tail call. */
__attribute__((noinline)) void leaf(uint64_t s)
{
	uint64_t d = burn(2 * s);
__atomic_fetch_add(&spun_leaf, d, __ATOMIC_RELAXED);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void mid(uint64_t s)
{
	uint64_t d = burn(s);
__atomic_fetch_add(&spun_mid, d, __ATOMIC_RELAXED);
	leaf(s);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void top(uint64_t s)
{
	uint64_t d = burn(s);
__atomic_fetch_add(&spun_top, d, __ATOMIC_RELAXED);
	mid(s);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void taskwork(uint64_t t)
{
	uint64_t d = burn(t);
__atomic_fetch_add(&spun_task, d, __ATOMIC_RELAXED);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void creator(uint64_t t)
{
	for (int i = 0; i < NTASKS; i++) {
#pragma omp task
		taskwork(t);
	}
#pragma omp taskwait
	__asm__ volatile("" ::: "memory");
}

static volatile long caught;

static void on_prof(int sig)
{
	(void)sig;
	caught++;
}

int main(int argc, char **argv)
{
	double chain = argc > 1 ? atof(argv[1]) : 2.0;
	int n = omp_get_max_threads();
	uint64_t s = (uint64_t)(chain * 1e9 / 4 / n);
#pragma omp parallel
	top(s);
	printf("top %llu mid %llu leaf %llu\n", (unsigned long long)spun_top, (unsigned long long)spun_mid,
	       (unsigned long long)spun_leaf);

#pragma omp parallel
	{
#pragma omp single
		creator(s * n / NTASKS);
	}
	printf("tasks %d taskwork %llu\n", NTASKS, (unsigned long long)spun_task);

	uint64_t waited = 0;
#pragma omp parallel reduction(+ : waited)
	{
		if (omp_get_thread_num() == 0) {
			uint64_t d = burn(s * n / 2);
__atomic_fetch_add(&spun_wait, d, __ATOMIC_RELAXED);
		}
		uint64_t t0 = cpu_ns();
#pragma omp barrier
		waited += cpu_ns() - t0;
	}
	printf("barrier_spin %llu waited %llu\n", (unsigned long long)spun_wait, (unsigned long long)waited);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	struct itimerval it = {{0, 10000}, {0, 10000}};
	setitimer(ITIMER_PROF, &it, NULL);
	spun_p = burn(200000000);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_PROF, &off, NULL);
	printf("sigprof %ld in %llu\n", (long)caught, (unsigned long long)spun_p);
	return 0;
}
