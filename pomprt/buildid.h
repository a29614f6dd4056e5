/*
 * buildid.h — the build IDs of the loaded objects (buildid.c), by the
 * addresses their loadable segments span.
 */
#ifndef POMP_BUILDID_H
#define POMP_BUILDID_H

#include <stdint.h>

typedef struct pomp_objid {
	uint64_t lo, hi; /* the addresses its loadable segments span */
	uint32_t len;    /* bytes of id */
	unsigned char id[64];
} pomp_objid;

/* pomp_build_ids writes the loaded objects that have a build ID into
 * out, at most max, and returns how many. */
int pomp_build_ids(pomp_objid *out, int max);

#endif
