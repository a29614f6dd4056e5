//go:build otf2

/* glue.c: the callbacks libotf2 needs, which Go cannot define itself. */
#include <stdbool.h>
#include <stdlib.h>
#include <otf2/otf2.h>

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller, bool final)
{
	(void)user; (void)type; (void)loc; (void)caller; (void)final;
	return OTF2_FLUSH; /* a full chunk goes to disk: memory stays flat */
}


/* No post-flush callback: libotf2 then writes no BUFFER_FLUSH records,
 * which would be records of our own among the program's. */
static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, NULL};

/* Memory: a few chunks per buffer. When a buffer has them all, allocate
 * says no, libotf2 flushes the buffer to its file and frees its chunks:
 * memory stays flat in the event count, where the default pool lets each
 * writer grow to 128 MiB. */
enum { CHUNKS = 4 };

typedef struct pool {
	int n;
	void *chunk[CHUNKS];
} pool;

static void *allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **data, uint64_t size)
{
	(void)user; (void)type; (void)loc;
	pool *p = *data;
	if (!p) {
		p = calloc(1, sizeof *p);
		if (!p)
			return NULL;
		*data = p;
	}
	if (p->n == CHUNKS)
		return NULL;
	void *c = malloc(size);
	if (c)
		p->chunk[p->n++] = c;
	return c;
}

static void free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **data, bool final)
{
	(void)user; (void)type; (void)loc;
	pool *p = *data;
	if (!p)
		return;
	for (int i = 0; i < p->n; i++)
		free(p->chunk[i]);
	p->n = 0;
	if (final) {
		free(p);
		*data = NULL;
	}
}

static const OTF2_MemoryCallbacks memory_callbacks = {allocate, free_all};

OTF2_ErrorCode gopari_otf2_setup(OTF2_Archive *a)
{
	OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
	if (e == OTF2_SUCCESS)
		e = OTF2_Archive_SetMemoryCallbacks(a, &memory_callbacks, NULL);
	if (e != OTF2_SUCCESS)
		return e;
	return OTF2_Archive_SetSerialCollectiveCallbacks(a);
}
