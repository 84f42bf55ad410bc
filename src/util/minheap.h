/* SPDX-License-Identifier: MIT */
/*
 * The sift-down of a binary min-heap of pointers, ordered by BEFORE.  The
 * per-CPU sources keep one cursor per CPU in such a heap to merge their
 * streams in timestamp order.
 */
#ifndef F2T_MINHEAP_H
#define F2T_MINHEAP_H

#include <stdbool.h>
#include <stddef.h>

typedef bool (*f2t_before_fn)(const void *a, const void *b);

/* Restores the heap order of V[0..N) below index I. */
static inline void f2t_minheap_down(void **v, size_t n, size_t i, f2t_before_fn before)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		void *t;

		if (l < n && before(v[l], v[m]))
			m = l;
		if (r < n && before(v[r], v[m]))
			m = r;
		if (m == i)
			return;
		t = v[i];
		v[i] = v[m];
		v[m] = t;
		i = m;
	}
}

#endif
