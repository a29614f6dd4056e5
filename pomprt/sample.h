/*
 * sample.h — sampled call paths (sample.c): what the signal handler
 * writes, what the folder keeps, and what Go reads at the end of the run
 * (sample.go).
 */
#ifndef POMP_SAMPLE_H
#define POMP_SAMPLE_H

#include <stdint.h>

#define SAMPLE_DEPTH 62 /* program counters kept per sample, the innermost first */
#define SAMPLE_KIND_SHIFT 28
#define SAMPLE_KIND (1u << SAMPLE_KIND_SHIFT)

/* A sample as the handler writes it. */
typedef struct pomp_srec {
	uint32_t node;   /* the thread's call path (callpath.c), CP_NONE for none */
	uint32_t loc;    /* its location, UINT32_MAX if it had none yet */
	uint32_t region; /* with no path: the parallel region whose closing barrier it waits in, or 0;
	                  * on the overflow path: its task's region | frame kind (FR_*) << SAMPLE_KIND_SHIFT */
	uint32_t weight; /* timer expirations it stands for (1 + overruns) */
	uint16_t depth;  /* program counters in pc */
	uint16_t truncated;
	uint32_t pad;
	uint64_t ns; /* the thread's CPU (or wall) time since its previous sample */
	uint64_t ts; /* when, in the runtime's ticks (core.h's now) */
	uint64_t pc[SAMPLE_DEPTH]; /* pc[0] where the thread was interrupted, then return addresses */
} pomp_srec;

/* A distinct sample and its weight, folded off the handler. */
typedef struct pomp_sfold {
	uint64_t hash;
	uint32_t loc, node, region, depth;
	uint64_t weight, ns;
	uint64_t *pc;
} pomp_sfold;

/* A sample in trace mode: its distinct sample (an index into folds),
 * where and when. */
typedef struct pomp_strace {
	uint32_t fold, loc;
	uint64_t ts;
} pomp_strace;

/* The run's sampling, read by Go once it is stopped. */
typedef struct pomp_sampling {
	int on; /* 1 while sampling, 2 once stopped */
	int signal;
	int wall; /* GOPARI_SAMPLE_CLOCK=wall */
	uint32_t hz;
	uint64_t period_ns;
	uint64_t samples;   /* timer expirations folded */
	uint64_t ns;        /* the time they stand for */
	uint64_t signals;   /* signals handled (a signal's overruns are samples too) */
	uint64_t handler;   /* ns of the timer's clock spent in the handler */
	uint64_t fold_ns;   /* CPU time of the folding thread */
	uint64_t dropped;   /* samples lost to a full ring */
	uint64_t truncated; /* samples whose stack was deeper than SAMPLE_DEPTH */
	int tables;         /* code segments whose unwind tables were registered (unwreg.c) */
	pomp_sfold *folds;
	uint32_t nfolds;
	uint32_t hcap;
	uint32_t *hash; /* 1 + index into folds, 0 for an empty slot */
	/* Trace mode: every sample, in the order folded (each thread's in
	 * time order), up to SAMPLE_TRACE_MAX; the rest are counted. */
	pomp_strace *trace;
	uint64_t ntrace, captrace, trace_lost;
} pomp_sampling;

extern pomp_sampling pomp_sg;

#endif
