/* SPDX-License-Identifier: MIT */
/*
 * What the FXT writer keeps of the model's profile (model/profile.h): each
 * callstack's frame and parent, each frame's address and mapping, each
 * mapping's place and binary (its number, name and build-id); and what it
 * has said already: which binaries got their module record, which
 * (process, mapping) pairs their mmap record.  Each record is written
 * once, just before the first backtrace that needs it, so a trace
 * describes only the code its samples touched.
 */
#ifndef F2T_FXT_PROF_H
#define F2T_FXT_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/item.h"

struct fxt_prof;

struct fxt_prof_mapping {
	uint32_t module;
	uint64_t start, len, vaddr;
};

struct fxt_prof *fxt_prof_new(void);
void fxt_prof_free(struct fxt_prof *p);

/**
 * fxt_prof_define() - keep what a definition item says (other items: nothing)
 *
 * Return: 0 or -ENOMEM.
 */
int fxt_prof_define(struct fxt_prof *p, const struct f2t_item *it);

/**
 * fxt_prof_stack() - the frames of callstack @id, innermost first
 * @pcs: their addresses
 * @maps: their mappings (0: none)
 * @max: room in both
 *
 * Return: how many were written (the innermost @max at most).
 */
size_t fxt_prof_stack(const struct fxt_prof *p, uint32_t id, uint64_t *pcs, uint32_t *maps,
		      size_t max);

/* Mapping @id (1..), as defined. */
const struct fxt_prof_mapping *fxt_prof_mapping(const struct fxt_prof *p, uint32_t id);

/**
 * fxt_prof_first_module() - is this the first time mapping @id's binary is needed?
 * @name, @len, @build_id, @build_id_len: set to what its module record says
 *
 * Marks it written.  Return: 1 the first time, 0 after, -ENOMEM.
 */
int fxt_prof_first_module(struct fxt_prof *p, uint32_t id, const char **name, size_t *len,
			  const uint8_t **build_id, size_t *build_id_len);

/**
 * fxt_prof_first_mmap() - the first time process @pid's mapping @id is needed?
 *
 * Return: 1 the first time, 0 after, -ENOMEM.
 */
int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint32_t id);

#endif
