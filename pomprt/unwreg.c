/*
 * unwreg.c — the unwind tables of the objects a program cannot unload,
 * handed to libunwind once, when sampling starts (sample.c).
 *
 * For an address new to its caches, libunwind finds the object that
 * holds it by walking the loader's list (dl_iterate_phdr), and blocks
 * every signal around each walk: 12 rt_sigprocmask calls a sample on
 * fib with a cutoff, where the interrupted address is new at nearly
 * every sample, each a system call on a KVM guest. It looks in the
 * tables registered with _U_dyn_register first, without a lock or a
 * system call; this file registers there the binary-search table of
 * .eh_frame_hdr of each executable segment, as libunwind's own walk
 * would find it (UNW_INFO_FORMAT_REMOTE_TABLE: the table and its base,
 * the segment's range).
 *
 * Only objects that stay loaded are registered: the executable and what
 * it needs, by DT_NEEDED, and what they need in turn, which the loader
 * never unloads. A table of an object that dlclose unmapped would be
 * read at the next address that falls where it was. Objects the program
 * opened itself (and LD_PRELOAD ones) keep libunwind's walk. Nothing is
 * registered where the tables are not the usual kind (version 1, a
 * sorted table of data-relative 4-byte entries).
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <elf.h>
#include <libunwind.h>
#include <link.h>
#include <string.h>

#define MAX_OBJS 128 /* objects looked at */
#define MAX_REGS 64  /* executable segments registered */

typedef struct uobj {
	ElfW(Addr) base;
	const char *name;
	const ElfW(Phdr) *phdr;
	ElfW(Half) phnum;
	const ElfW(Dyn) *dyn;
	const char *strtab;
	const char *soname;
	int keep, expanded;
} uobj;

static uobj objs[MAX_OBJS];
static int nobjs;
static unw_dyn_info_t regs[MAX_REGS];

/* addr returns a pointer of the dynamic section as an address: the
 * loader relocated it in place on most targets, not on all. */
static ElfW(Addr) addr(ElfW(Addr) base, ElfW(Addr) p) { return p < base ? p + base : p; }

static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (nobjs == MAX_OBJS)
		return 1;
	uobj *o = &objs[nobjs++];
	memset(o, 0, sizeof *o);
	o->base = info->dlpi_addr;
	o->name = info->dlpi_name ? info->dlpi_name : "";
	o->phdr = info->dlpi_phdr;
	o->phnum = info->dlpi_phnum;
	for (int i = 0; i < o->phnum; i++)
		if (o->phdr[i].p_type == PT_DYNAMIC)
			o->dyn = (const ElfW(Dyn) *)(o->base + o->phdr[i].p_vaddr);
	if (!o->dyn)
		return 0;
	ElfW(Addr) soname = 0;
	int has = 0;
	for (const ElfW(Dyn) *d = o->dyn; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_STRTAB)
			o->strtab = (const char *)addr(o->base, d->d_un.d_ptr);
		else if (d->d_tag == DT_SONAME) {
			soname = d->d_un.d_val;
			has = 1;
		}
	}
	if (o->strtab && has)
		o->soname = o->strtab + soname;
	return 0;
}

/* named reports whether object o is the one DT_NEEDED names need: by
 * its soname, or the last part of its file's name. */
static int named(const uobj *o, const char *need)
{
	if (o->soname)
		return strcmp(o->soname, need) == 0;
	const char *slash = strrchr(o->name, '/');
	return strcmp(slash ? slash + 1 : o->name, need) == 0;
}

/* expand keeps what kept object o needs. */
static void expand(uobj *o)
{
	o->expanded = 1;
	if (!o->dyn || !o->strtab)
		return;
	for (const ElfW(Dyn) *d = o->dyn; d->d_tag != DT_NULL; d++) {
		if (d->d_tag != DT_NEEDED)
			continue;
		const char *need = o->strtab + d->d_un.d_val;
		for (int i = 1; i < nobjs; i++)
			if (!objs[i].keep && named(&objs[i], need))
				objs[i].keep = 1;
	}
}

/* table fills di with o's search table, or returns 0. */
static int table(const uobj *o, unw_dyn_info_t *di)
{
	const unsigned char *hdr = NULL;
	for (int i = 0; i < o->phnum; i++)
		if (o->phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = (const unsigned char *)(o->base + o->phdr[i].p_vaddr);
	/* version 1; eh_frame_ptr as a 4-byte value (absolute or
	 * pc-relative); fde_count as udata4; the table datarel | sdata4 */
	if (!hdr || hdr[0] != 1 || ((hdr[1] & 0x0f) != 0x03 && (hdr[1] & 0x0f) != 0x0b) || hdr[2] != 0x03 || hdr[3] != 0x3b)
		return 0;
	uint32_t fdes;
	memcpy(&fdes, hdr + 8, sizeof fdes);
	memset(di, 0, sizeof *di);
	di->format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di->u.rti.name_ptr = (unw_word_t)(uintptr_t)o->name;
	di->u.rti.segbase = (unw_word_t)(uintptr_t)hdr;
	di->u.rti.table_data = (unw_word_t)(uintptr_t)(hdr + 12);
	di->u.rti.table_len = (unw_word_t)fdes * 8 / sizeof(unw_word_t); /* entries of two int32 */
	for (const ElfW(Dyn) *d = o->dyn; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_PLTGOT)
			di->gp = d->d_un.d_ptr; /* data-relative pointers' base, as libunwind takes it */
	return fdes > 0;
}

/* pomp_unwind_register hands reg (libunwind's _U_dyn_register) the
 * tables of the objects that stay loaded; it returns how many segments
 * it registered. Once per process, before any unwinding. */
int pomp_unwind_register(void (*reg)(unw_dyn_info_t *))
{
	static int done;
	if (done++ || !reg)
		return 0;
	nobjs = 0;
	dl_iterate_phdr(collect, NULL);
	if (nobjs == 0)
		return 0;
	objs[0].keep = 1; /* the executable: the loader's first */
	for (int again = 1; again;) {
		again = 0;
		for (int i = 0; i < nobjs; i++)
			if (objs[i].keep && !objs[i].expanded) {
				expand(&objs[i]);
				again = 1;
			}
	}
	int n = 0;
	for (int i = 0; i < nobjs; i++) {
		unw_dyn_info_t di;
		if (!objs[i].keep || !table(&objs[i], &di))
			continue;
		for (int k = 0; k < objs[i].phnum && n < MAX_REGS; k++) {
			const ElfW(Phdr) *p = &objs[i].phdr[k];
			if (p->p_type != PT_LOAD || !(p->p_flags & PF_X))
				continue;
			regs[n] = di;
			regs[n].start_ip = objs[i].base + p->p_vaddr;
			regs[n].end_ip = objs[i].base + p->p_vaddr + p->p_memsz;
			reg(&regs[n++]);
		}
	}
	return n;
}
