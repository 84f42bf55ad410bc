/* SPDX-License-Identifier: MIT */
/*
 * A binary min-heap of pointers, ordered by BEFORE.  The per-CPU sources
 * keep one cursor per CPU in one to merge their streams in timestamp order:
 * take the top, advance it, tell the heap whether it has more.
 */
#ifndef F2T_MINHEAP_H
#define F2T_MINHEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

typedef bool (*f2t_before_fn)(const void *a, const void *b);

struct f2t_minheap {
	void **v;
	size_t n;
	f2t_before_fn before;
};

/* Restores the heap order below index I. */
static inline void f2t_minheap_down(struct f2t_minheap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		void *t;

		if (l < h->n && h->before(h->v[l], h->v[m]))
			m = l;
		if (r < h->n && h->before(h->v[r], h->v[m]))
			m = r;
		if (m == i)
			return;
		t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
}

/* Room for CAP entries; 0 or -ENOMEM (as -12, no errno.h needed by users). */
static inline int f2t_minheap_init(struct f2t_minheap *h, size_t cap, f2t_before_fn before)
{
	h->v = calloc(cap ? cap : 1, sizeof(*h->v));
	h->n = 0;
	h->before = before;
	return h->v ? 0 : -12;
}

/* Adds P without ordering; call f2t_minheap_build() after the last one. */
static inline void f2t_minheap_push(struct f2t_minheap *h, void *p)
{
	h->v[h->n++] = p;
}

static inline void f2t_minheap_build(struct f2t_minheap *h)
{
	for (size_t i = h->n; i-- > 0;)
		f2t_minheap_down(h, i);
}

/* The least entry, or NULL when the heap is empty. */
static inline void *f2t_minheap_top(const struct f2t_minheap *h)
{
	return h->n ? h->v[0] : NULL;
}

/* The top entry's key moved on (MORE) or it ran dry (!MORE): reorder. */
static inline void f2t_minheap_update_top(struct f2t_minheap *h, bool more)
{
	if (!more)
		h->v[0] = h->v[--h->n];
	f2t_minheap_down(h, 0);
}

static inline void f2t_minheap_free(struct f2t_minheap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = 0;
}

#endif
