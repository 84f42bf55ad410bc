/* SPDX-License-Identifier: MIT */
/*
 * A k-way merge: inputs that each hold one pending item, handed out in the
 * order BEFORE gives their items.  The input handed out last is moved on
 * (REFILL) only when the next one is asked for, so whatever its item points
 * to stays valid meanwhile.  The one merge by time of the program: a ring
 * buffer's CPUs, the perf rings' CPUs, a conversion's sources.
 *
 *   f2t_kmerge_init(&m, n, before, refill, ctx);
 *   for each input: f2t_kmerge_add(&m, input);   (refills it once; an empty one is left out)
 *   while ((ret = f2t_kmerge_next(&m, &input)) > 0) use input's item;
 */
#ifndef F2T_KMERGE_H
#define F2T_KMERGE_H

#include <stdbool.h>
#include <stddef.h>

/* Does A's pending item come before B's? */
typedef bool (*f2t_before_fn)(const void *a, const void *b);
/* Moves INPUT to its next item: 1, 0 when it has none left, or a negative errno. */
typedef int (*f2t_refill_fn)(void *input, void *ctx);

struct f2t_kmerge {
	void **v;		/* a binary min-heap of the inputs with an item */
	size_t n, cap;
	bool ordered;		/* the heap property holds */
	f2t_before_fn before;
	f2t_refill_fn refill;
	void *ctx;
	void *last;		/* handed out last: refilled before the next */
};

/**
 * f2t_kmerge_init() - an empty merge of at most @cap inputs
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_kmerge_init(struct f2t_kmerge *m, size_t cap, f2t_before_fn before,
		    f2t_refill_fn refill, void *ctx);

/**
 * f2t_kmerge_add() - add @input, after moving it to its first item
 *
 * Return: 0 (also for an input with no item, which is left out), or what
 * the refill returned when it failed.
 */
int f2t_kmerge_add(struct f2t_kmerge *m, void *input);

/**
 * f2t_kmerge_next() - the input whose item comes next
 * @input: set to it
 *
 * Return: 1, 0 when every input is used up, or what a refill returned when
 * it failed.
 */
int f2t_kmerge_next(struct f2t_kmerge *m, void **input);

/* f2t_kmerge_free() - frees the merge (not the inputs) */
void f2t_kmerge_free(struct f2t_kmerge *m);

#endif
