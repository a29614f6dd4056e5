/*
 * env.c — the runtime's settings: the GOPARI_* variables, the mode, and
 * POMP_On/POMP_Off.
 *
 * Every GOPARI_* variable that the runtime reads is in one table, read
 * once at start-up (pomp_env_read, before anything else), and validated
 * alike: unset or empty, it takes its default; a value the table does
 * not accept is said once on stderr, naming the variable, the accepted
 * values and what holds instead (the default). The rest of the runtime,
 * its Go part included, reads the parsed values (pomp_env_value), never
 * the environment. GOPARI_EXPERIMENT_DIRECTORY, a path, is read by the
 * Go part (finalize.go, job.go): every value is valid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

/* A variable's accepted values: words, or a byte count when words is
 * NULL, or a count (a whole number from 1 to 2^31-1, or to max if set)
 * when count is set. Its default is words[0] (a byte count or count: 0,
 * which the reader takes for its default). */
typedef struct env_var {
	const char *name;
	const char *const *words;
	const char *otherwise; /* what a bad value leaves in force */
	int count;
	int64_t max;         /* a count's greatest value, if not 2^31-1 */
	const char *example; /* a count's example, if not 100000 */
} env_var;

static const char *const mode_words[] = {"profile", "trace", "ids", "off", NULL};
static const char *const bit_words[] = {"0", "1", NULL};
static const char *const clock_words[] = {"tsc", "monotonic", NULL};
static const char *const sampling_words[] = {"on", "off", NULL};
static const char *const ordered_words[] = {"time", "count", NULL};
static const char *const onoff_words[] = {"on", "off", NULL};
static const char *const sample_clock_words[] = {"cpu", "wall", NULL};

/* Indexed by ENV_* (rt.h). */
static const env_var env_vars[ENV_COUNT] = {
	[ENV_MODE] = {"GOPARI_MODE", mode_words, "using profile"},
	[ENV_GRAINS] = {"GOPARI_GRAINS", bit_words, "no grains are recorded"},
	[ENV_TRACE_MAX_BYTES] = {"GOPARI_TRACE_MAX_BYTES", NULL, "the trace has no limit"},
	[ENV_CLOCK] = {"GOPARI_CLOCK", clock_words, "using tsc"},
	[ENV_SAMPLING] = {"GOPARI_SAMPLING", sampling_words, "using on"},
	[ENV_ORDERED] = {"GOPARI_ORDERED", ordered_words, "using time"},
	[ENV_SUMMARY] = {"GOPARI_SUMMARY", bit_words, "no summary is printed"},
	[ENV_RECORD_IDS] = {"GOPARI_RECORD_IDS", bit_words, "task IDs are not recorded"},
	[ENV_CALLPATHS] = {"GOPARI_CALLPATHS", onoff_words, "using on"},
	[ENV_CALLPATH_NODES] = {"GOPARI_CALLPATH_NODES", NULL, "using 100000", 1},
	[ENV_SAMPLE_HZ] = {"GOPARI_SAMPLE_HZ", NULL, "nothing is sampled", 1, 100000, "1000"},
	[ENV_SAMPLE_CLOCK] = {"GOPARI_SAMPLE_CLOCK", sample_clock_words, "using cpu"},
	[ENV_SAMPLE_SIGNAL] = {"GOPARI_SAMPLE_SIGNAL", NULL, "using SIGRTMIN+3", 1, 64, "40"},
};

static uint64_t env_values[ENV_COUNT];

/* parse_bytes reads a byte count with an optional k, M or G suffix
 * (powers of 1024); it returns 0 for what it cannot read. */
static uint64_t parse_bytes(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return 0;
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	return *end ? 0 : v;
}

/* accepted writes the values v accepts, as a warning names them: "a, b
 * or c", or what a byte count looks like. */
static void accepted(const env_var *v, char *buf, size_t n)
{
	if (v->count) {
		int64_t max = v->max ? v->max : INT32_MAX;
		snprintf(buf, n, "a count from 1 to %lld (such as %s)", (long long)max, v->example ? v->example : "100000");
		return;
	}
	if (!v->words) {
		snprintf(buf, n, "a byte count (such as 500M)");
		return;
	}
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; v->words[i] && len < n; i++) {
		const char *sep = i == 0 ? "" : v->words[i + 1] ? ", " : " or ";
		len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, v->words[i]);
	}
}

/* parse returns the value of variable v set to s, or -1 if v does not
 * accept s. */
static int64_t parse(const env_var *v, const char *s)
{
	if (v->count) {
		char *end;
		unsigned long long c = strtoull(s, &end, 10);
		unsigned long long max = v->max ? (unsigned long long)v->max : INT32_MAX;
		return *s >= '0' && *s <= '9' && !*end && c >= 1 && c <= max ? (int64_t)c : -1;
	}
	if (!v->words) {
		uint64_t b = parse_bytes(s);
		return b && b <= INT64_MAX ? (int64_t)b : -1;
	}
	for (int i = 0; v->words[i]; i++)
		if (!strcmp(s, v->words[i]))
			return i;
	return -1;
}

/* pomp_env_read reads every variable of the table, once. */
void pomp_env_read(void)
{
	for (int k = 0; k < ENV_COUNT; k++) {
		const env_var *v = &env_vars[k];
		const char *s = getenv(v->name);
		env_values[k] = 0;
		if (!s || !*s)
			continue;
		int64_t x = parse(v, s);
		if (x >= 0) {
			env_values[k] = (uint64_t)x;
			continue;
		}
		char ok[128];
		accepted(v, ok, sizeof ok);
		fprintf(stderr, "gopari: %s=%s is not %s; %s\n", v->name, s, ok, v->otherwise);
	}
}

/* pomp_env_value returns the value of variable k (ENV_*): the index of
 * its word in the table, or its byte count. */
uint64_t pomp_env_value(int k) { return k >= 0 && k < ENV_COUNT ? env_values[k] : 0; }

static int saved_mode = POMP_MODE_PROFILE; /* restored by POMP_On */

/* pomp_set_mode sets the run's mode, which POMP_On restores. */
void pomp_set_mode(int mode)
{
	saved_mode = mode;
	pomp_mode = mode;
	pomp_g.mode = mode;
}

/* pomp_env_mode returns the mode that GOPARI_MODE (and the test switch
 * GOPARI_RECORD_IDS) ask for: trace mode is profile mode with a stream
 * (events.c). */
int pomp_env_mode(void)
{
	switch (pomp_env_value(ENV_MODE)) {
	case ENV_MODE_IDS:
		return pomp_env_value(ENV_RECORD_IDS) ? POMP_MODE_RECORD : POMP_MODE_IDS;
	case ENV_MODE_OFF:
		return POMP_MODE_OFF;
	}
	return POMP_MODE_PROFILE;
}

/* configure sets the runtime's settings beyond the mode. */
void pomp_configure(void)
{
	pomp_g.sampling = pomp_env_value(ENV_SAMPLING) != ENV_SAMPLING_OFF;
	pomp_g.ordered_count = pomp_env_value(ENV_ORDERED) == ENV_ORDERED_COUNT;
	pomp_ev_configure(); /* a stream times every event it records: the profile samples as ever */
	/* Until the clock is calibrated (at the first fork after 10 ms), a
	 * tick is taken to be 1/4 ns: a generous bound for "long". */
	pomp_g.long_ticks = pomp_use_tsc ? 4 * (uint64_t)LONG_NS : LONG_NS;
	pomp_g.short_ticks = pomp_use_tsc ? (uint64_t)SHORT_NS : SHORT_NS; /* a tick is taken to be 1 ns until calibrated */
}

/* ---------------------------------------------------------------------
 * User control.
 */
void POMP_Off(void)
{
	if (pomp_mode >= POMP_MODE_PROFILE)
		pomp_mode = POMP_MODE_IDS;
}

void POMP_On(void)
{
	if (saved_mode >= POMP_MODE_PROFILE)
		pomp_mode = saved_mode;
}
