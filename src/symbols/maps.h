/* SPDX-License-Identifier: MIT */
/*
 * Every process's executable mappings through the recording, as the capture
 * tells them: the /proc maps read at start, then MMAP2 records (new
 * mappings), FORK (a new process starts with its parent's), COMM with the
 * exec flag (a fresh address space).  Files are interned once as modules,
 * keyed by path and build-id, so each ELF is read and named once.
 */
#ifndef F2T_MAPS_H
#define F2T_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/buildid.h"

/* A mapped file (or the kernel, a kernel module, a JIT region). */
struct f2t_module {
	uint32_t id;			/* 1, 2, ... in order of creation */
	char *name;			/* path, "[kernel.kallsyms]", "[vdso]", ... */
	struct f2t_build_id build_id;	/* recorded; length 0 if not known */
	/* The symbolizer's: symbols loaded once per module. */
	void *syms;
	int syms_err;			/* why there are none (negative errno) */
	bool syms_tried;
};

struct f2t_mapping {
	uint64_t start, end;		/* [start, end) */
	uint64_t pgoff;			/* file offset of start */
	struct f2t_module *mod;
};

struct f2t_maps;

struct f2t_maps *f2t_maps_new(void);
/* Frees every process and module; FREE_SYMS (may be NULL) frees mod->syms. */
void f2t_maps_free(struct f2t_maps *m, void (*free_syms)(void *));

/**
 * f2t_maps_module() - the module for @name with @build_id, created once
 * @build_id: may be NULL or of length 0 (unknown); a later call that knows
 *            it fills it in
 *
 * Return: the module, or NULL on ENOMEM.
 */
struct f2t_module *f2t_maps_module(struct f2t_maps *m, const char *name, size_t len,
				   const struct f2t_build_id *build_id);

/**
 * f2t_maps_add() - process @pid maps @mod at [@start, @start + @len)
 *
 * Whatever the process had mapped there before is cut away.
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_maps_add(struct f2t_maps *m, int32_t pid, uint64_t start, uint64_t len,
		 uint64_t pgoff, struct f2t_module *mod);

/* A new process @child with @parent's mappings.  Return: 0 or -ENOMEM. */
int f2t_maps_fork(struct f2t_maps *m, int32_t parent, int32_t child);

/* Process @pid exec'd: its old mappings are gone. */
void f2t_maps_exec(struct f2t_maps *m, int32_t pid);

/* The mapping of @pid holding @addr, or NULL. */
const struct f2t_mapping *f2t_maps_find(const struct f2t_maps *m, int32_t pid, uint64_t addr);

/**
 * f2t_maps_list() - every mapping of @pid, sorted by address
 * @n: out: how many
 * @gen: out: changes whenever the mappings of @pid change (0: no process),
 *       and is never the same for two different processes
 *
 * Return: the array, valid until the next change to @m; NULL when none.
 */
const struct f2t_mapping *f2t_maps_list(const struct f2t_maps *m, int32_t pid, size_t *n,
				       uint64_t *gen);

/* Calls FN for every module, in creation order. */
void f2t_maps_each_module(struct f2t_maps *m, void (*fn)(struct f2t_module *, void *),
			  void *ctx);

/**
 * f2t_maps_parse_proc() - add the lines of a /proc/PID/maps text for @pid
 *
 * Return: lines added, or -ENOMEM.
 */
int f2t_maps_parse_proc(struct f2t_maps *m, int32_t pid, const char *text, size_t len);

#endif
