/* SPDX-License-Identifier: MIT */
/*
 * The function symbols of one ELF file, for user-space frames: .symtab,
 * else the .symtab of its separate debug file (found by build-id under
 * DEBUG_ROOT/.build-id/), else .dynsym.  Names are demangled on first use.
 * A file whose build-id differs from the one recorded is refused: it is
 * not the code that ran.  A file is read once per process: what is read is
 * kept and handed out again while the file is unchanged.
 */
#ifndef F2T_ELFSYMS_H
#define F2T_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/buildid.h"

#define F2T_DEBUG_ROOT "/usr/lib/debug"

struct f2t_elfsyms;

/**
 * f2t_elfsyms_open() - load the function symbols of @path
 * @path: the file as it was mapped
 * @expect: the build-id recorded for it, or NULL / length 0 if none was
 * @debug_root: where .build-id/ debug files live (F2T_DEBUG_ROOT normally)
 * @out: the loaded symbols (possibly none: a stripped file still maps
 *       offsets to addresses)
 *
 * @path is opened as util/openreg.h says, not following a symlink.
 *
 * Return: 0, -ESTALE when the build-ids differ, -ENOEXEC when the file is
 * not ELF (or not a regular file), or another negative errno (e.g. -ENOENT).
 */
int f2t_elfsyms_open(const char *path, const struct f2t_build_id *expect,
		     const char *debug_root, struct f2t_elfsyms **out);

/**
 * f2t_elfsyms_open_debug() - open the separate debug file of build-id @id
 * @root: the debug root (F2T_DEBUG_ROOT normally); NULL: none
 * @id: the build-id
 * @path: set to ROOT/.build-id/xx/rest.debug
 * @len: its size
 *
 * A regular file only (util/openreg.h); the symlinks distributions put
 * there are followed.  Whether it belongs to @id is the caller's to check.
 *
 * Return: a descriptor or negative errno.
 */
int f2t_elfsyms_open_debug(const char *root, const struct f2t_build_id *id, char *path,
			   size_t len);

/**
 * f2t_elfsyms_open_mem() - the same for an ELF image in memory (the vDSO)
 *
 * Return: 0 or negative errno.
 */
int f2t_elfsyms_open_mem(const void *image, size_t len, struct f2t_elfsyms **out);

/* Frees the symbols of f2t_elfsyms_open_mem(); those of a file are kept. */
void f2t_elfsyms_free(struct f2t_elfsyms *e);

/**
 * f2t_elfsyms_lookup() - the function holding link-time address @vaddr
 * @off: set to @vaddr minus the function's start
 *
 * Return: the (demangled) name, valid until f2t_elfsyms_free(); NULL if no
 * function covers @vaddr.
 */
const char *f2t_elfsyms_lookup(struct f2t_elfsyms *e, uint64_t vaddr, uint64_t *off);

/**
 * f2t_elfsyms_vaddr() - the link-time address of file offset @off
 *
 * Through the PT_LOAD segment holding @off.  Return: 0, or -ENOENT when no
 * segment holds it (then the offset itself is the best guess).
 */
int f2t_elfsyms_vaddr(const struct f2t_elfsyms *e, uint64_t off, uint64_t *vaddr);

/* Symbols loaded, and the build-id the file carries (length 0 if none). */
size_t f2t_elfsyms_count(const struct f2t_elfsyms *e);
const struct f2t_build_id *f2t_elfsyms_build_id(const struct f2t_elfsyms *e);
/* "symtab", "debug" (the separate debug file's symtab), "dynsym" or "none". */
const char *f2t_elfsyms_source(const struct f2t_elfsyms *e);

#endif
