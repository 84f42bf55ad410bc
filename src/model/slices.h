/* SPDX-License-Identifier: MIT */
/*
 * Open duration slices (marker B/E) per thread, so a writer can tell an E
 * that closes a slice from one that has nothing to close.  Only the depth is
 * kept: the writers already know what to emit for the slice itself.  Memory
 * grows with the number of threads that ever wrote a B, never with events.
 */
#ifndef F2T_SLICES_H
#define F2T_SLICES_H

#include <stdbool.h>
#include <stdint.h>

struct f2t_slices;

/* An empty table, or NULL with errno set. */
struct f2t_slices *f2t_slices_new(void);
void f2t_slices_free(struct f2t_slices *s);

/**
 * f2t_slices_begin() - a B on thread @tid
 * @s:   the table
 * @tid: the writing thread (the print event's pid, not the marker's)
 *
 * Return: the new depth on @tid (1 for an outermost slice), or -ENOMEM.
 */
int f2t_slices_begin(struct f2t_slices *s, int32_t tid);

/**
 * f2t_slices_end() - an E on thread @tid
 * @s:   the table
 * @tid: the writing thread
 *
 * Return: true if it closed an open slice; false if none was open on @tid,
 * in which case the writer must drop the E.  Unmatched ends are counted.
 */
bool f2t_slices_end(struct f2t_slices *s, int32_t tid);

/* Slices open on @tid now. */
uint32_t f2t_slices_depth(const struct f2t_slices *s, int32_t tid);

/* E's that had nothing to close, since the table was made. */
uint64_t f2t_slices_unmatched(const struct f2t_slices *s);

/* Slices still open, over all threads (at the end: never closed). */
uint64_t f2t_slices_open(const struct f2t_slices *s);

/**
 * f2t_slices_each_open() - visit every thread with open slices
 * @s:   the table
 * @fn:  called with the thread and its depth; a non-zero return stops
 * @ctx: passed to @fn
 *
 * For closing what is still open when the trace ends.  Order is unspecified.
 *
 * Return: the first non-zero value @fn returned, else 0.
 */
int f2t_slices_each_open(const struct f2t_slices *s,
			 int (*fn)(int32_t tid, uint32_t depth, void *ctx), void *ctx);

#endif
