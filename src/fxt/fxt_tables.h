/* SPDX-License-Identifier: MIT */
/*
 * The FXT string and thread tables as a writer sees them: content -> index,
 * with a bounded number of indices.  When every index is taken the least
 * recently used one is reassigned, and the caller writes a new string (or
 * thread) record for it before using it, so readers replace the old entry.
 *
 * A writer must intern everything one record needs before encoding that
 * record: an entry used by the current record is among the most recent, so
 * it cannot be evicted while the record is built as long as the table holds
 * more entries than a record uses.
 */
#ifndef F2T_FXT_TABLES_H
#define F2T_FXT_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fxt_strtab;
struct fxt_thrtab;

/**
 * fxt_strtab_new() - a string table handing out indices @first..@last
 * @first: lowest index it may assign, >= 1 (lower ones the caller keeps
 *         for its own constant strings)
 * @last: highest, <= 0x7fff
 *
 * Memory grows with the distinct strings interned, up to @last - @first + 1
 * of them.
 *
 * Return: the table, or NULL with errno set (EINVAL, ENOMEM).
 */
struct fxt_strtab *fxt_strtab_new(uint16_t first, uint16_t last);

/** fxt_strtab_free() - frees @t and its copies of the strings; NULL is fine */
void fxt_strtab_free(struct fxt_strtab *t);

/**
 * fxt_strtab_intern() - the index of a string, assigning one if needed
 * @t: table
 * @s: the bytes (need not be NUL-terminated)
 * @len: their length, 1..FXT_MAX_STRING_LEN
 * @fresh: set true when the index was (re)assigned just now, so a string
 *         record must be written before the index is used; false otherwise
 *
 * Return: the index, or -EINVAL for an empty string, -E2BIG for one longer
 * than FXT_MAX_STRING_LEN, -ENOMEM.
 */
int fxt_strtab_intern(struct fxt_strtab *t, const char *s, size_t len, bool *fresh);

/** fxt_strtab_count() - indices in use */
unsigned int fxt_strtab_count(const struct fxt_strtab *t);

/** fxt_strtab_evictions() - how many times an index was reassigned */
uint64_t fxt_strtab_evictions(const struct fxt_strtab *t);

/**
 * fxt_thrtab_new() - a thread table handing out indices @first..@last
 * @first: lowest index, >= 1
 * @last: highest, <= 255
 *
 * Return: the table, or NULL with errno set.
 */
struct fxt_thrtab *fxt_thrtab_new(uint8_t first, uint8_t last);

/** fxt_thrtab_free() - frees @t; NULL is fine */
void fxt_thrtab_free(struct fxt_thrtab *t);

/**
 * fxt_thrtab_intern() - the index of a (process, thread) koid pair
 * @t: table
 * @pid: process koid
 * @tid: thread koid
 * @fresh: set true when a thread record must be written before use
 *
 * Return: the index (never 0).
 */
int fxt_thrtab_intern(struct fxt_thrtab *t, uint64_t pid, uint64_t tid, bool *fresh);

/** fxt_thrtab_evictions() - how many times an index was reassigned */
uint64_t fxt_thrtab_evictions(const struct fxt_thrtab *t);

#endif
