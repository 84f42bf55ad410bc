// SPDX-License-Identifier: MIT
/*
 * Several sources as one, in timestamp order (util/kmerge.h): each source
 * keeps one pending event, and is asked for its next only when the caller
 * asks the merge for the one after the event it handed out, so that
 * event's strings stay valid meanwhile.
 */
#include <errno.h>
#include <stdlib.h>

#include "source/source.h"
#include "util/kmerge.h"

struct input {
	struct f2t_source *src;
	struct f2t_event ev;		/* pending */
};

struct merge {
	struct f2t_source base;
	struct input *in;
	unsigned int n;
	struct f2t_kmerge merge;
};

static int refill(void *input, void *ctx)
{
	struct input *in = input;

	return f2t_source_next(in->src, &in->ev);
}

static int merge_next(struct f2t_source *s, struct f2t_event *ev)
{
	struct merge *m = (struct merge *)s;
	struct input *in;
	int ret = f2t_kmerge_next(&m->merge, (void **)&in);

	if (ret > 0)
		*ev = in->ev;
	return ret;
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
	f2t_kmerge_free(&m->merge);
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
	int ret = 0;

	if (!m || !(m->in = calloc(n ? n : 1, sizeof(*m->in))) ||
	    f2t_kmerge_init(&m->merge, n, offsetof(struct input, ev.ts), refill, NULL)) {
		if (m)
			free(m->in);
		free(m);
		for (unsigned int i = 0; i < n; i++)
			f2t_source_close(srcs[i]);
		errno = ENOMEM;
		return NULL;
	}
	m->base.ops = &merge_ops;
	m->n = n;
	for (unsigned int i = 0; i < n; i++)
		m->in[i] = (struct input){ .src = srcs[i] };
	/* Every source's first event: a source that cannot give one fails here. */
	for (unsigned int i = 0; !ret && i < n; i++)
		ret = f2t_kmerge_add(&m->merge, &m->in[i]);
	if (ret) {
		merge_close(&m->base);
		errno = -ret;
		return NULL;
	}
	return &m->base;
}
