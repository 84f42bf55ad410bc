// SPDX-License-Identifier: MIT
/*
 * ELF function symbols through libelf.  Everything needed later is copied
 * out (addresses, sizes, names, load segments) and the file is closed, so
 * thousands of mapped libraries cost no file descriptors.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/demangle.h"
#include "symbols/elfsyms.h"
#include "util/openreg.h"
#include "util/sort.h"
#include "util/vec.h"

struct esym {
	uint64_t start, size;	/* size 0: runs to the next symbol */
	uint32_t name;		/* offset into strs */
	uint8_t global;		/* preferred among aliases */
	uint8_t demangled;	/* dname is set (or there is none) */
	char *dname;
};

struct seg {
	uint64_t offset, filesz, vaddr;
};

struct f2t_elfsyms {
	struct esym *v;
	size_t n, cap;
	char *strs;
	size_t slen, scap;
	struct seg *segs;
	size_t nsegs;
	struct f2t_build_id bid;
	const char *source;
	/* Read from a file: kept in the list of files read (see read_files). */
	bool kept;
	struct file_id {
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec mtime;
		char *debug_root;
	} id;
	struct f2t_elfsyms *next;
};

/*
 * The files read so far, kept for the life of the process: the perf and
 * off-CPU sources of one capture symbolize with a symbolizer each, and
 * would read the same libraries twice (libc's symbols come from its debug
 * file: 7000 of them, read and sorted).  A file is the one read when its
 * device, inode, size and modification time are; the build-id expected is
 * checked against the one it carries, as when it is read.
 */
static struct f2t_elfsyms *read_files;

static bool same_file(const struct file_id *a, const struct stat *st, const char *debug_root)
{
	return a->dev == st->st_dev && a->ino == st->st_ino && a->size == st->st_size &&
	       a->mtime.tv_sec == st->st_mtim.tv_sec && a->mtime.tv_nsec == st->st_mtim.tv_nsec &&
	       !strcmp(a->debug_root, debug_root ? debug_root : "");
}

static struct f2t_elfsyms *file_read(const struct stat *st, const char *debug_root)
{
	for (struct f2t_elfsyms *e = read_files; e; e = e->next)
		if (same_file(&e->id, st, debug_root))
			return e;
	return NULL;
}

/* Keeps E, read from the file of ST: only an out-of-memory leaves it the caller's. */
static void keep(struct f2t_elfsyms *e, const struct stat *st, const char *debug_root)
{
	e->id = (struct file_id){ .dev = st->st_dev, .ino = st->st_ino, .size = st->st_size,
				  .mtime = st->st_mtim,
				  .debug_root = strdup(debug_root ? debug_root : "") };
	if (!e->id.debug_root)
		return;
	e->kept = true;
	e->next = read_files;
	read_files = e;
}

/*
 * Adds symbol name @s without its symbol version: a shared library's
 * .symtab names its versioned definitions "clock_nanosleep@GLIBC_2.2.5" and
 * "__libc_start_main@@GLIBC_2.34", while the function is the part before
 * the '@' (what a caller wrote, what the .dynsym entry says).
 */
static int add_name(struct f2t_elfsyms *e, const char *s, uint32_t *at)
{
	const char *ver = strchr(s + 1, '@');
	size_t len = (ver ? (size_t)(ver - s) : strlen(s)) + 1;

	if (e->slen + len > e->scap) {
		/* Names are found by 32-bit offsets. */
		if (e->slen + len > UINT32_MAX)
			return -E2BIG;
		if (f2t_vec_reserve(&e->strs, &e->scap, e->slen + len, 64 * 1024))
			return -ENOMEM;
	}
	memcpy(e->strs + e->slen, s, len - 1);
	e->strs[e->slen + len - 1] = '\0';
	*at = (uint32_t)e->slen;
	e->slen += len;
	return 0;
}

/* The functions of the first section of TYPE (SHT_SYMTAB or SHT_DYNSYM). */
static int read_symbols(struct f2t_elfsyms *e, Elf *elf, uint32_t type)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t count;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			return 0;
		count = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < count && !err; i++) {
			GElf_Sym sym;
			const char *name;
			int st;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			st = GELF_ST_TYPE(sym.st_info);
			if ((st != STT_FUNC && st != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
			    !sym.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (f2t_vec_reserve(&e->v, &e->cap, e->n + 1, 1024))
				return -ENOMEM;
			e->v[e->n] = (struct esym){
				.start = sym.st_value, .size = sym.st_size,
				.global = GELF_ST_BIND(sym.st_info) == STB_GLOBAL,
			};
			/*
			 * A symbol without a size (_init, hand-written asm) ends
			 * with its section at the latest: PLT stubs after .init
			 * are not _init.
			 */
			if (!sym.st_size && sym.st_shndx < SHN_LORESERVE) {
				GElf_Shdr ss;
				Elf_Scn *in = elf_getscn(elf, sym.st_shndx);

				if (in && gelf_getshdr(in, &ss) && sym.st_value >= ss.sh_addr &&
				    sym.st_value < ss.sh_addr + ss.sh_size)
					e->v[e->n].size = ss.sh_addr + ss.sh_size - sym.st_value;
			}
			err = add_name(e, name, &e->v[e->n].name);
			if (!err)
				e->n++;
		}
		return err;
	}
	return 0;
}

static int read_segments(struct f2t_elfsyms *e, Elf *elf)
{
	size_t n = 0;

	if (elf_getphdrnum(elf, &n) < 0 || !n)
		return 0;
	e->segs = calloc(n, sizeof(*e->segs));
	if (!e->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			e->segs[e->nsegs++] = (struct seg){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Among aliases, the global one with a size first: it is kept. */
	if (x->global != y->global)
		return y->global - x->global;
	return (y->size > 0) - (x->size > 0);
}

static void sort_symbols(struct f2t_elfsyms *e)
{
	size_t out = 0;

	f2t_sort(e->v, e->n, sizeof(*e->v), by_start);
	for (size_t i = 0; i < e->n; i++)
		if (!out || e->v[out - 1].start != e->v[i].start)
			e->v[out++] = e->v[i];
	e->n = out;
}

int f2t_elfsyms_open_debug(const char *root, const struct f2t_build_id *id, char *path,
			   size_t len)
{
	char hex[2 * F2T_BUILD_ID_MAX + 1];

	if (!root || id->len < 2)
		return -ENOENT;
	f2t_build_id_hex(id, hex, sizeof(hex));
	if ((size_t)snprintf(path, len, "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2) >= len)
		return -ENAMETOOLONG;
	/* Distributions make these symlinks into the debug tree: followed. */
	return f2t_open_reg(AT_FDCWD, path, 0, NULL);
}

/* Symbols of ELF; the debug file's .symtab when ELF has none. */
static int load(struct f2t_elfsyms *e, Elf *elf, const char *debug_root)
{
	char path[4096];
	int err, dfd;

	if (elf_kind(elf) != ELF_K_ELF)
		return -ENOEXEC;
	f2t_build_id_read(elf, &e->bid);
	err = read_segments(e, elf);
	if (!err)
		err = read_symbols(e, elf, SHT_SYMTAB);
	if (err)
		return err;
	e->source = "symtab";
	if (!e->n && (dfd = f2t_elfsyms_open_debug(debug_root, &e->bid, path, sizeof(path))) >= 0) {
		Elf *dbg = elf_begin(dfd, ELF_C_READ_MMAP, NULL);
		struct f2t_build_id dbid;

		/* Only the debug file made for this very build. */
		if (dbg && elf_kind(dbg) == ELF_K_ELF && !f2t_build_id_read(dbg, &dbid) &&
		    f2t_build_id_eq(&dbid, &e->bid))
			err = read_symbols(e, dbg, SHT_SYMTAB);
		if (dbg)
			elf_end(dbg);
		close(dfd);
		e->source = "debug";
	}
	if (!err && !e->n) {
		err = read_symbols(e, elf, SHT_DYNSYM);
		e->source = "dynsym";
	}
	if (!e->n)
		e->source = "none";
	sort_symbols(e);
	return err;
}

int f2t_elfsyms_open(const char *path, const struct f2t_build_id *expect,
		     const char *debug_root, struct f2t_elfsyms **out)
{
	struct f2t_elfsyms *e = NULL, *known;
	Elf *elf = NULL;
	struct stat st;
	int fd = -1, err;

	*out = NULL;
	elf_version(EV_CURRENT);
	/*
	 * The path comes from the capture, a name the kernel printed: a FIFO
	 * there would block open() for ever, a device could act on being
	 * opened, a symlink is something put there since.
	 */
	fd = f2t_open_reg(AT_FDCWD, path, F2T_OPEN_NOFOLLOW, &st);
	if (fd < 0) {
		err = fd == -F2T_ENOTREG ? -ENOEXEC : fd;
		goto out;
	}
	known = file_read(&st, debug_root);
	if (known) {
		err = expect && expect->len && !f2t_build_id_eq(&known->bid, expect) ? -ESTALE : 0;
		if (!err)
			*out = known;
		goto out;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		err = -ENOMEM;
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		err = -ENOEXEC;
		goto out;
	}
	if (elf_kind(elf) == ELF_K_ELF && expect && expect->len) {
		struct f2t_build_id have;

		if (f2t_build_id_read(elf, &have) || !f2t_build_id_eq(&have, expect)) {
			err = -ESTALE;
			goto out;
		}
	}
	err = load(e, elf, debug_root);
	if (!err)
		keep(e, &st, debug_root);
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (err)
		f2t_elfsyms_free(e);
	else if (e)
		*out = e;
	return err;
}

int f2t_elfsyms_open_mem(const void *image, size_t len, struct f2t_elfsyms **out)
{
	struct f2t_elfsyms *e = calloc(1, sizeof(*e));
	Elf *elf;
	int err;

	*out = NULL;
	if (!e)
		return -ENOMEM;
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, len);
	err = elf ? load(e, elf, NULL) : -ENOEXEC;
	if (elf)
		elf_end(elf);
	if (err)
		f2t_elfsyms_free(e);
	else
		*out = e;
	return err;
}

void f2t_elfsyms_free(struct f2t_elfsyms *e)
{
	if (!e || e->kept)
		return;
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].dname);
	free(e->v);
	free(e->strs);
	free(e->segs);
	free(e);
}

const char *f2t_elfsyms_lookup(struct f2t_elfsyms *e, uint64_t vaddr, uint64_t *off)
{
	size_t lo = 0, hi = e->n;
	struct esym *s;

	*off = 0;
	if (!hi || vaddr < e->v[0].start)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->v[mid].start <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	s = &e->v[lo];
	/* A sized symbol ends where it says; padding after it belongs to nobody. */
	if (s->size && vaddr >= s->start + s->size)
		return NULL;
	if (!s->demangled) {
		s->dname = f2t_demangle(e->strs + s->name);
		s->demangled = 1;
	}
	*off = vaddr - s->start;
	return s->dname ? s->dname : e->strs + s->name;
}

int f2t_elfsyms_vaddr(const struct f2t_elfsyms *e, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < e->nsegs; i++) {
		const struct seg *g = &e->segs[i];

		if (off >= g->offset && off < g->offset + g->filesz) {
			*vaddr = off - g->offset + g->vaddr;
			return 0;
		}
	}
	*vaddr = off;
	return -ENOENT;
}

size_t f2t_elfsyms_count(const struct f2t_elfsyms *e)
{
	return e->n;
}

const struct f2t_build_id *f2t_elfsyms_build_id(const struct f2t_elfsyms *e)
{
	return &e->bid;
}

const char *f2t_elfsyms_source(const struct f2t_elfsyms *e)
{
	return e->source;
}
