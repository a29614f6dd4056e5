/*
 * buildid.c — the GNU build IDs of the objects loaded in this process,
 * read from their notes in memory (dl_iterate_phdr): the profile's
 * mappings name the file that ran by its build ID, and reading each
 * file's notes from disk at exit (open, section headers, notes) cost a
 * sampled run a third of a millisecond.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>
#include "buildid.h"

typedef struct {
	pomp_objid *out;
	int max, n;
} collect;

/* note_id copies the build ID of the note segment [p, end) into o. */
static void note_id(pomp_objid *o, const unsigned char *p, const unsigned char *end)
{
	while (p + sizeof(ElfW(Nhdr)) <= end) {
		const ElfW(Nhdr) *h = (const ElfW(Nhdr) *)p;
		const unsigned char *name = p + sizeof *h;
		const unsigned char *desc = name + ((h->n_namesz + 3) & ~3u);
		const unsigned char *next = desc + ((h->n_descsz + 3) & ~3u);
		if (desc > end || next > end || next <= p)
			return;
		if (h->n_type == NT_GNU_BUILD_ID && h->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
		    h->n_descsz > 0 && h->n_descsz <= sizeof o->id) {
			memcpy(o->id, desc, h->n_descsz);
			o->len = h->n_descsz;
			return;
		}
		p = next;
	}
}

static int one(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	collect *c = data;
	if (c->n >= c->max)
		return 1;
	pomp_objid *o = &c->out[c->n];
	memset(o, 0, sizeof *o);
	o->lo = UINT64_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t a = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD) {
			if (a < o->lo)
				o->lo = a;
			if (a + ph->p_memsz > o->hi)
				o->hi = a + ph->p_memsz;
		} else if (ph->p_type == PT_NOTE && o->len == 0) {
			note_id(o, (const unsigned char *)a, (const unsigned char *)a + ph->p_memsz);
		}
	}
	if (o->len > 0 && o->lo < o->hi)
		c->n++;
	return 0;
}

int pomp_build_ids(pomp_objid *out, int max)
{
	collect c = {out, max, 0};
	dl_iterate_phdr(one, &c);
	return c.n;
}
