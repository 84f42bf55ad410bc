/* SPDX-License-Identifier: MIT */
/*
 * A min-heap of inputs that each hold one pending item, handed out by the
 * item's 64-bit key (a timestamp), ties in the order the inputs were added.
 * The key lives in the input, KEY_OFFSET bytes in: reading it there, not
 * through a callback, keeps the heap off the profile.  The input handed
 * out last is moved on (REFILL) only when the next one is asked for, so
 * whatever its item points to stays valid meanwhile.  The one interleaving by
 * time of the program: a ring buffer's CPUs, the perf rings' CPUs, the off-CPU
 * rings' CPUs, a conversion's sources.
 *
 *   f2t_minheap_init(&m, n, offsetof(struct input, ts), refill, ctx);
 *   for each input: f2t_minheap_add(&m, input);   (refills it once; an empty one is left out)
 *   while ((ret = f2t_minheap_next(&m, &input)) > 0) use input's item;
 */
#ifndef F2T_MINHEAP_H
#define F2T_MINHEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Moves INPUT to its next item, key included: 1, 0 when it has none left, or a negative errno. */
typedef int (*f2t_refill_fn)(void *input, void *ctx);

struct f2t_minheap_entry {
	uint64_t key;		/* the input's, read after each refill */
	size_t rank;		/* the order it was added in: breaks ties */
	void *input;
};

struct f2t_minheap {
	struct f2t_minheap_entry *v;	/* a binary min-heap of the inputs with an item */
	size_t n, cap, added;
	size_t key_offset;
	bool ordered;		/* the heap property holds */
	f2t_refill_fn refill;
	void *ctx;
	bool pending;		/* v[0] was handed out: refilled before the next */
};

/**
 * f2t_minheap_init() - an empty heap of at most @cap inputs
 * @key_offset: where an input holds its item's uint64_t key
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_minheap_init(struct f2t_minheap *m, size_t cap, size_t key_offset, f2t_refill_fn refill,
		    void *ctx);

/**
 * f2t_minheap_add() - add @input, after moving it to its first item
 *
 * Return: 0 (also for an input with no item, which is left out), or what
 * the refill returned when it failed.
 */
int f2t_minheap_add(struct f2t_minheap *m, void *input);

/* f2t_minheap_next() past its common case: @refilled is what refilling the top returned. */
int f2t_minheap_settle(struct f2t_minheap *m, int refilled, void **input);

/**
 * f2t_minheap_next_by() - f2t_minheap_next() with @refill, the heap's own
 *			   refill function, named where it is called
 *
 * For a caller whose refill is a static inline function of its own: it is
 * then inlined, where the heap's pointer to it is a call a time.
 */
static inline int f2t_minheap_next_by(struct f2t_minheap *m, void **input, f2t_refill_fn refill)
{
	struct f2t_minheap_entry *v = m->v;
	int ret = 0;

	if (m->pending) {
		ret = refill(v[0].input, m->ctx);
		if (ret > 0) {
			memcpy(&v[0].key, (const char *)v[0].input + m->key_offset,
			       sizeof(v[0].key));
			if (m->ordered && (m->n < 2 || v[0].key < v[1].key) &&
			    (m->n < 3 || v[0].key < v[2].key)) {
				*input = v[0].input;
				return 1;
			}
		}
	}
	return f2t_minheap_settle(m, ret, input);
}

/**
 * f2t_minheap_next() - the input whose item comes next
 * @input: set to it
 *
 * Inline for the common case, a run: the input handed out last moves on
 * and still comes first, before the others (a tie goes the slow way).
 *
 * Return: 1, 0 when every input is used up, or what a refill returned when
 * it failed.
 */
static inline int f2t_minheap_next(struct f2t_minheap *m, void **input)
{
	return f2t_minheap_next_by(m, input, m->refill);
}

/* f2t_minheap_free() - frees the heap (not the inputs) */
void f2t_minheap_free(struct f2t_minheap *m);

#endif
