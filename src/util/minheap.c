// SPDX-License-Identifier: MIT
/* The heap of inputs (minheap.h): a binary min-heap of inputs and their keys. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/minheap.h"

static inline bool before(const struct f2t_minheap_entry *a, const struct f2t_minheap_entry *b)
{
	return a->key < b->key || (a->key == b->key && a->rank < b->rank);
}

static inline uint64_t key_of(const struct f2t_minheap *m, const void *input)
{
	uint64_t key;

	memcpy(&key, (const char *)input + m->key_offset, sizeof(key));
	return key;
}

/* Restores the heap order below index I. */
static void sift_down(struct f2t_minheap *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, least = i;
		struct f2t_minheap_entry t;

		if (l < m->n && before(&m->v[l], &m->v[least]))
			least = l;
		if (r < m->n && before(&m->v[r], &m->v[least]))
			least = r;
		if (least == i)
			return;
		t = m->v[i];
		m->v[i] = m->v[least];
		m->v[least] = t;
		i = least;
	}
}

int f2t_minheap_init(struct f2t_minheap *m, size_t cap, size_t key_offset, f2t_refill_fn refill,
		    void *ctx)
{
	*m = (struct f2t_minheap){
		.cap = cap, .key_offset = key_offset, .refill = refill, .ctx = ctx,
	};
	m->v = calloc(cap ? cap : 1, sizeof(*m->v));
	return m->v ? 0 : -ENOMEM;
}

int f2t_minheap_add(struct f2t_minheap *m, void *input)
{
	int ret = m->refill(input, m->ctx);

	if (ret <= 0)
		return ret;
	if (m->n == m->cap)
		return -ENOSPC;
	m->v[m->n++] = (struct f2t_minheap_entry){
		.key = key_of(m, input), .rank = m->added++, .input = input,
	};
	m->ordered = false;
	return 0;
}

int f2t_minheap_settle(struct f2t_minheap *m, int refilled, void **input)
{
	if (m->pending) {
		m->pending = false;
		if (refilled < 0)
			return refilled;
		/* The top moved on behind another input, or ran dry: put it in its place. */
		if (!refilled)
			m->v[0] = m->v[--m->n];
		sift_down(m, 0);
	}
	if (!m->ordered) {
		for (size_t i = m->n; i-- > 0;)
			sift_down(m, i);
		m->ordered = true;
	}
	if (!m->n)
		return 0;
	*input = m->v[0].input;
	m->pending = true;
	return 1;
}

void f2t_minheap_free(struct f2t_minheap *m)
{
	free(m->v);
	m->v = NULL;
	m->n = 0;
}
