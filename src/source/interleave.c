// SPDX-License-Identifier: MIT
/*
 * Several sources as one, in timestamp order (util/minheap.h): each source
 * keeps one pending event, and is asked for its next only when the caller
 * asks for the one after the event it handed out, so that
 * event's strings stay valid meanwhile.
 */
#include <errno.h>
#include <stdlib.h>

#include "source/source.h"
#include "util/minheap.h"

struct input {
	struct f2t_source *src;
	struct f2t_event ev;		/* pending */
};

struct interleave {
	struct f2t_source base;
	struct input *in;
	unsigned int n;
	struct f2t_minheap heap;
	int first;		/* one source: 1 its first event pending, -1 taken, 0 ended */
};

static int refill(void *input, void *ctx)
{
	struct input *in = input;

	return f2t_source_next(in->src, &in->ev);
}

static int interleave_next(struct f2t_source *s, struct f2t_event *ev)
{
	struct interleave *m = (struct interleave *)s;
	struct input *in;
	int ret = f2t_minheap_next(&m->heap, (void **)&in);

	if (ret > 0)
		*ev = in->ev;
	return ret;
}

/*
 * One source: its events passed on as it gives them, no heap and no copy
 * (each event went through the heap of capsrc's CPUs and then this one's).
 * Its first event was asked for at the opening, as with several.
 */
static int single_next(struct f2t_source *s, struct f2t_event *ev)
{
	struct interleave *m = (struct interleave *)s;

	int ret;

	if (m->first > 0) {
		m->first = -1;
		*ev = m->in[0].ev;
		return 1;
	}
	if (!m->first)
		return 0;
	ret = f2t_source_next(m->in[0].src, ev);
	if (ret <= 0)
		m->first = 0;	/* ended: not asked again */
	return ret;
}

static void interleave_counts(const struct f2t_source *s, struct f2t_stats *st)
{
	const struct interleave *m = (const struct interleave *)s;

	for (unsigned int i = 0; i < m->n; i++)
		f2t_source_counts(m->in[i].src, st);
}

static void interleave_progress(const struct f2t_source *s, uint64_t *done, uint64_t *total)
{
	const struct interleave *m = (const struct interleave *)s;

	for (unsigned int i = 0; i < m->n; i++) {
		uint64_t d, t;

		f2t_source_progress(m->in[i].src, &d, &t);
		*done += d;
		*total += t;
	}
}

static void interleave_close(struct f2t_source *s)
{
	struct interleave *m = (struct interleave *)s;

	for (unsigned int i = 0; i < m->n; i++)
		f2t_source_close(m->in[i].src);
	f2t_minheap_free(&m->heap);
	free(m->in);
	free(m);
}

static const struct f2t_source_ops interleave_ops = {
	.next = interleave_next,
	.counts = interleave_counts,
	.progress = interleave_progress,
	.close = interleave_close,
};

static const struct f2t_source_ops single_ops = {
	.next = single_next,
	.counts = interleave_counts,
	.progress = interleave_progress,
	.close = interleave_close,
};

struct f2t_source *f2t_source_direct(struct f2t_source *s)
{
	struct interleave *m = (struct interleave *)s;

	if (s->ops != &single_ops || m->first > 0)
		return s;
	m->first = 0;	/* read through the one below from now on */
	return m->in[0].src;
}

struct f2t_source *f2t_source_interleave(struct f2t_source **srcs, unsigned int n)
{
	struct interleave *m = calloc(1, sizeof(*m));
	int ret = 0;

	if (!m || !(m->in = calloc(n ? n : 1, sizeof(*m->in))) ||
	    f2t_minheap_init(&m->heap, n, offsetof(struct input, ev.ts), refill, NULL)) {
		if (m)
			free(m->in);
		free(m);
		for (unsigned int i = 0; i < n; i++)
			f2t_source_close(srcs[i]);
		errno = ENOMEM;
		return NULL;
	}
	m->base.ops = &interleave_ops;
	m->n = n;
	for (unsigned int i = 0; i < n; i++)
		m->in[i] = (struct input){ .src = srcs[i] };
	/* Every source's first event: a source that cannot give one fails here. */
	if (n == 1) {
		m->base.ops = &single_ops;
		m->first = ret = f2t_source_next(srcs[0], &m->in[0].ev);
		if (ret > 0)
			ret = 0;
	}
	for (unsigned int i = 0; n > 1 && !ret && i < n; i++)
		ret = f2t_minheap_add(&m->heap, &m->in[i]);
	if (ret) {
		interleave_close(&m->base);
		errno = -ret;
		return NULL;
	}
	return &m->base;
}
