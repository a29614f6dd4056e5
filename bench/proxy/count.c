/* count.c: function-instrumentation hooks that count, for measuring what
 * a program built with -finstrument-functions calls (bench driver, part
 * "functions"). Linked into a program instead of gopari's runtime, they
 * count every function entry per thread and, at exit, print on stderr
 * "calls N" (all threads) and "functions K" (distinct functions called).
 * Each thread counts its first 4096 distinct functions exactly, in a
 * table of its own; the proxy has a few dozen. */
#include <stdint.h>
#include <stdio.h>

#define SLOTS 4096

#define NOI __attribute__((no_instrument_function))

static unsigned long long total_calls;
static void *seen[SLOTS];
static unsigned nseen;

struct counter {
	unsigned long long calls;
	void *fn[SLOTS];
};
static __thread struct counter *self;
static struct counter counters[64];
static unsigned ncounters;

NOI static struct counter *mine(void)
{
	if (!self) {
		unsigned i = __atomic_fetch_add(&ncounters, 1, __ATOMIC_RELAXED);
		self = &counters[i % 64];
	}
	return self;
}

NOI void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	struct counter *c = mine();
	c->calls++;
	uintptr_t h = ((uintptr_t)fn >> 4) % SLOTS;
	for (unsigned k = 0; k < 8; k++, h = (h + 1) % SLOTS) {
		if (c->fn[h] == fn)
			return;
		if (!c->fn[h]) {
			c->fn[h] = fn;
			return;
		}
	}
}

NOI void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

NOI static void add(void *fn)
{
	for (unsigned i = 0; i < nseen; i++)
		if (seen[i] == fn)
			return;
	if (nseen < SLOTS)
		seen[nseen++] = fn;
}

__attribute__((destructor)) NOI static void report(void)
{
	unsigned n = ncounters < 64 ? ncounters : 64;
	for (unsigned i = 0; i < n; i++) {
		total_calls += counters[i].calls;
		for (unsigned h = 0; h < SLOTS; h++)
			if (counters[i].fn[h])
				add(counters[i].fn[h]);
	}
	fprintf(stderr, "calls %llu\nfunctions %u\n", total_calls, nseen);
}
