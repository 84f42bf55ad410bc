// SPDX-License-Identifier: MIT
/*
 * Several sources as one, in timestamp order: each source keeps one pending
 * event, a min-heap orders the sources by it.  A source is asked for its
 * next event only when the caller asks the merge for the one after the
 * event it handed out, so that event's strings stay valid meanwhile.
 */
#include <errno.h>
#include <stdlib.h>

#include "source/source.h"
#include "util/minheap.h"

struct input {
	struct f2t_source *src;
	unsigned int rank;		/* position in the caller's list: breaks ties */
	struct f2t_event ev;		/* pending */
};

struct merge {
	struct f2t_source base;
	struct input *in;
	unsigned int n;
	struct f2t_minheap heap;	/* inputs with a pending event */
	struct input *last;		/* handed out last: refill before the next */
	int primed;			/* 0: not yet, 1: every input asked once */
};

static bool before(const void *pa, const void *pb)
{
	const struct input *a = pa, *b = pb;

	return a->ev.ts < b->ev.ts || (a->ev.ts == b->ev.ts && a->rank < b->rank);
}

static int prime(struct merge *m)
{
	for (unsigned int i = 0; i < m->n; i++) {
		int ret = f2t_source_next(m->in[i].src, &m->in[i].ev);

		if (ret < 0)
			return ret;
		if (ret)
			f2t_minheap_push(&m->heap, &m->in[i]);
	}
	f2t_minheap_build(&m->heap);
	m->primed = 1;
	return 0;
}

static int merge_next(struct f2t_source *s, struct f2t_event *ev)
{
	struct merge *m = (struct merge *)s;
	struct input *top;
	int ret;

	if (!m->primed) {
		ret = prime(m);
		if (ret)
			return ret;
	} else if (m->last) {
		ret = f2t_source_next(m->last->src, &m->last->ev);
		m->last = NULL;
		if (ret < 0)
			return ret;
		f2t_minheap_update_top(&m->heap, ret > 0);
	}
	top = f2t_minheap_top(&m->heap);
	if (!top)
		return 0;
	*ev = top->ev;
	m->last = top;
	return 1;
}

static void merge_counts(const struct f2t_source *s, struct f2t_stats *st)
{
	const struct merge *m = (const struct merge *)s;

	for (unsigned int i = 0; i < m->n; i++)
		f2t_source_counts(m->in[i].src, st);
}

static void merge_progress(const struct f2t_source *s, uint64_t *done, uint64_t *total)
{
	const struct merge *m = (const struct merge *)s;

	for (unsigned int i = 0; i < m->n; i++) {
		uint64_t d, t;

		f2t_source_progress(m->in[i].src, &d, &t);
		*done += d;
		*total += t;
	}
}

static void merge_close(struct f2t_source *s)
{
	struct merge *m = (struct merge *)s;

	for (unsigned int i = 0; i < m->n; i++)
		f2t_source_close(m->in[i].src);
	f2t_minheap_free(&m->heap);
	free(m->in);
	free(m);
}

static const struct f2t_source_ops merge_ops = {
	.next = merge_next,
	.counts = merge_counts,
	.progress = merge_progress,
	.close = merge_close,
};

struct f2t_source *f2t_source_merge(struct f2t_source **srcs, unsigned int n)
{
	struct merge *m = calloc(1, sizeof(*m));

	if (!m || !(m->in = calloc(n ? n : 1, sizeof(*m->in))) ||
	    f2t_minheap_init(&m->heap, n, before)) {
		if (m) {
			free(m->in);
			free(m);
		}
		for (unsigned int i = 0; i < n; i++)
			f2t_source_close(srcs[i]);
		errno = ENOMEM;
		return NULL;
	}
	m->base.ops = &merge_ops;
	m->n = n;
	for (unsigned int i = 0; i < n; i++) {
		m->in[i].src = srcs[i];
		m->in[i].rank = i;
	}
	return &m->base;
}
