// SPDX-License-Identifier: MIT
/*
 * A trace.dat buffer read by us: each CPU's data walked page by page
 * (tracedat_pages.c, mapped or inflated chunk by chunk), as a capture's
 * ring-buffer pages are.
 */
#include <errno.h>
#include <stdlib.h>

#include "source/tracedat/tracedat_bufsrc-local.h"
#include "util/log.h"

struct pagesrc {
	struct tracedat_bufsrc b;
	struct f2t_tracedat_cpu_reader *cpus;
	uint32_t ncursors;
};

static int cpu_next(void *input, void *ctx)
{
	struct f2t_tracedat_cpu_reader *r = input;
	struct pagesrc *s = ctx;
	int ret = f2t_tracedat_cpu_next(r);

	if (ret > 0)
		s->b.lost_pages += r->w.lost;	/* set only as a lost note's page begins */
	return ret;
}

static int pagesrc_next(struct f2t_source *src, struct f2t_event *ev)
{
	struct pagesrc *s = (struct pagesrc *)src;

	for (;;) {
		struct f2t_tracedat_cpu_reader *r;
		struct f2t_rbwalk *w;
		int ret = f2t_minheap_next(&s->b.heap, (void **)&r);

		if (ret <= 0)
			return ret;
		w = &r->w;
		if (!w->lost && !f2t_rbwalk_event_fits(w)) {
			f2t_err("%s: offset %llu: cpu %u: an event lies past the end of its page or before the one before it",
				s->b.path, (unsigned long long)r->page_off, r->where.cpu);
			return -EINVAL;
		}
		ret = f2t_tracedat_bufsrc_event(&s->b, ev, w->ts, r->where.cpu,
						w->lost ? NULL : w->data, w->size, w->lost_count);
		if (ret)
			return ret;
	}
}

/* How far through its CPU data, in the file's bytes. */
static void pagesrc_progress(const struct f2t_source *src, uint64_t *done, uint64_t *total)
{
	const struct pagesrc *s = (const struct pagesrc *)src;

	for (uint32_t i = 0; i < s->ncursors; i++) {
		const struct f2t_tracedat_cpu_reader *r = &s->cpus[i];
		uint64_t at = r->pos - r->where.off;

		*done += at < r->where.len ? at : r->where.len;
		*total += r->where.len;
	}
}

static void pagesrc_close(struct f2t_source *src)
{
	struct pagesrc *s = (struct pagesrc *)src;

	for (uint32_t i = 0; s->cpus && i < s->ncursors; i++)
		f2t_tracedat_cpu_fini(&s->cpus[i]);
	free(s->cpus);
	f2t_tracedat_bufsrc_fini(&s->b);
	free(s);
}

static const struct f2t_source_ops pagesrc_ops = {
	.next = pagesrc_next,
	.text = f2t_tracedat_bufsrc_text,
	.fields = f2t_tracedat_bufsrc_fields,
	.counts = f2t_tracedat_bufsrc_counts,
	.progress = pagesrc_progress,
	.close = pagesrc_close,
};

struct f2t_source *f2t_tracedat_pagesrc_open(struct tep_handle *tep, uint32_t ncpus,
					     const struct f2t_tracedat_buffer *buf,
					     const struct f2t_tracedat_data *data,
					     const struct f2t_recording *rec, uint64_t *first_ts)
{
	struct pagesrc *s = calloc(1, sizeof(*s));
	unsigned long said = f2t_errors();
	int ret;

	if (!s) {
		f2t_err("%s: out of memory", rec->path);
		errno = ENOMEM;
		return NULL;
	}
	s->b.ncpus = ncpus;
	s->ncursors = buf->ncpus;
	ret = f2t_tracedat_bufsrc_init(&s->b, &pagesrc_ops, tep, buf->page, rec);
	if (!ret && (!(s->cpus = calloc(s->ncursors ? s->ncursors : 1, sizeof(*s->cpus))) ||
		     f2t_minheap_init(&s->b.heap, s->ncursors,
				      offsetof(struct f2t_tracedat_cpu_reader, w.ts), cpu_next, s)))
		ret = -ENOMEM;
	for (uint32_t i = 0; !ret && i < s->ncursors; i++) {
		ret = f2t_tracedat_cpu_init(&s->cpus[i], data, &buf->cpus[i], buf->page);
		if (!ret && buf->cpus[i].cpu >= s->b.ncpus)
			s->b.ncpus = buf->cpus[i].cpu + 1;
	}
	for (uint32_t i = 0; !ret && i < s->ncursors; i++) {
		const struct f2t_rbwalk *w = &s->cpus[i].w;

		ret = f2t_minheap_add(&s->b.heap, &s->cpus[i]);
		if (!ret && w->ts < *first_ts && (w->data || w->lost))
			*first_ts = w->ts;
	}
	if (ret) {
		if (ret == -ENOMEM && f2t_errors() == said)
			f2t_err("%s: out of memory", rec->path);
		pagesrc_close(&s->b.base);
		errno = -ret;
		return NULL;
	}
	return &s->b.base;
}
