/* SPDX-License-Identifier: MIT */
/*
 * What the FXT writer has already said about address spaces: which modules
 * got their module record, which (process, mapping) pairs their mmap
 * record.  Each is written once, just before the first backtrace that
 * needs it, so a trace describes only the code its samples touched.
 */
#ifndef F2T_FXT_PROF_H
#define F2T_FXT_PROF_H

#include <stdbool.h>
#include <stdint.h>

struct fxt_prof;

struct fxt_prof *fxt_prof_new(void);
void fxt_prof_free(struct fxt_prof *p);

/**
 * fxt_prof_first_module() - is this the first time module @id is seen?
 *
 * Marks it seen.  Return: 1 the first time, 0 after, -ENOMEM.
 */
int fxt_prof_first_module(struct fxt_prof *p, uint32_t id);

/**
 * fxt_prof_first_mmap() - the first time process @pid's mapping at @start
 *                         of module @id is seen?
 *
 * Return: 1 the first time, 0 after, -ENOMEM.
 */
int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint64_t start, uint32_t id);

#endif
