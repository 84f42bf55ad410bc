// SPDX-License-Identifier: MIT
/*
 * Capture source: libtraceevent parses the saved header_page and format
 * files; each sub-buffer is walked (rbwalk.h); a min-heap on timestamps interleaves the
 * per-CPU streams.  Field offsets come from the format files (never
 * hand-written) and are looked up once per event type, not per event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "source/capture/capsrc.h"
#include "source/ringbuf/fmtcheck.h"
#include "source/ringbuf/rawdec.h"
#include "source/ringbuf/rbwalk.h"
#include "source/source.h"
#include "util/minheap.h"
#include "util/log.h"

struct cursor {
	struct f2t_rbwalk w;	/* first: what every event reads */
	uint32_t cpu;
	bool started;
	const size_t *recs;	/* indices of this CPU's CPU_DATA records */
	size_t nrecs, ri;
	uint64_t pos;		/* offset of the next sub-buffer in recs[ri] */
	unsigned char *copy;	/* a record's last sub-buffer, with zeroed slack after it */
	uint64_t page_off;	/* file offset of the current sub-buffer */
};

struct f2t_capsrc {
	struct f2t_source base;
	const struct f2t_capr *cap;
	struct tep_handle *tep;
	bool own_tep;		/* made here, not lent (f2t_capsrc_open_with()) */
	uint32_t subbuf_size;
	struct f2t_rawdec dec;		/* records into events (rawdec.h) */

	struct f2t_cap_cpus split;	/* CPU_DATA records by CPU */
	struct cursor *cursors;
	uint32_t ncursors;
	struct f2t_minheap heap;	/* cursors by their next event's time */

	uint64_t done_bytes, total_bytes;
	uint64_t released;	/* the capture's bytes before this are unmapped */
	uint64_t lost_events, lost_pages;
	/*
	 * A flight recorder's window (META flight_from_ns): the sub-buffers
	 * kept are those that end in it, and what the first of them holds
	 * from before it is the past the window leaves out, not events.
	 */
	uint64_t from_ns;
};

static int cursor_load_page(struct f2t_capsrc *s, struct cursor *c);
static inline int cursor_next(void *input, void *ctx);

static int read_meta_u64(const struct f2t_capr *cap, const char *key, uint64_t *v)
{
	char *s = f2t_capr_meta(cap, key);
	char *end;

	if (!s)
		return -ENOENT;
	*v = strtoull(s, &end, 10);
	free(s);
	return 0;
}

static bool clock_is_mono(const struct f2t_capr *cap)
{
	char *clock = f2t_capr_meta(cap, "clock");
	bool mono = clock && !strcmp(clock, "mono");

	free(clock);
	return mono;
}

/* The sub-buffer size the capture says it was recorded with (4096 in old ones). */
static uint32_t subbuf_size_of(const struct f2t_capr *cap)
{
	uint64_t v;

	if (read_meta_u64(cap, "subbuf_size", &v) == 0 && v >= 64 && v <= (1u << 24))
		return (uint32_t)v;
	if (read_meta_u64(cap, "page_size", &v) == 0 && v >= 64 && v <= (1u << 24))
		return (uint32_t)v;
	return 4096;
}

static int parse_formats(const struct f2t_capr *cap, struct tep_handle *tep, uint32_t subbuf_size)
{
	const struct f2t_cap_rec *hp = f2t_capr_find(cap, F2T_CAP_HEADER_PAGE, -1);

	if (!hp) {
		f2t_err("%s: no header_page record: not a complete capture", cap->path);
		return -EINVAL;
	}
	if (tep_parse_header_page(tep, (char *)hp->data, hp->len, 8) < 0) {
		f2t_err("%s: offset %llu: cannot parse header_page",
			 cap->path, (unsigned long long)hp->offset);
		return -EINVAL;
	}
	for (size_t i = 0; i < cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &cap->recs[i];
		const char *sys = r->data, *nul;

		if (r->type != F2T_CAP_EVENT_FORMAT)
			continue;
		nul = memchr(sys, '\0', r->len);
		if (!nul) {
			f2t_err("%s: offset %llu: event format without a system name",
				 cap->path, (unsigned long long)r->offset);
			return -EINVAL;
		}
		/* libtraceevent's parser trusts the text: check it first (fmtcheck.h). */
		if (f2t_format_check_record(cap->path, r, subbuf_size, tep))
			return -EINVAL;
		if (tep_parse_event(tep, nul + 1, r->len - (size_t)(nul + 1 - sys), sys)) {
			f2t_err("%s: offset %llu: cannot parse the format of an event in system %s",
				 cap->path, (unsigned long long)r->offset, sys);
			return -EINVAL;
		}
	}
	return 0;
}

struct tep_handle *f2t_capsrc_formats(const struct f2t_capr *cap)
{
	uint32_t subbuf_size = subbuf_size_of(cap);
	struct tep_handle *tep = tep_alloc();
	int ret;

	if (!tep) {
		f2t_err("%s: out of memory", cap->path);
		errno = ENOMEM;
		return NULL;
	}
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, (int)subbuf_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	ret = parse_formats(cap, tep, subbuf_size);
	if (ret) {
		tep_free(tep);
		errno = -ret;
		return NULL;
	}
	return tep;
}

/* ---- the heap of cursors, ordered by the timestamp of their next event ---- */

static int setup_cursors(struct f2t_capsrc *s)
{
	const struct f2t_capr *cap = s->cap;
	int ret;

	ret = f2t_capr_split_by_cpu(cap, F2T_CAP_CPU_DATA, F2T_MAX_CPUS, &s->split);
	if (ret)
		return ret;
	for (size_t i = 0; i < cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &cap->recs[i];

		if (r->type != F2T_CAP_CPU_DATA)
			continue;
		if (r->len % s->subbuf_size) {
			f2t_err("%s: offset %llu: cpu data of %llu bytes is not whole %u-byte sub-buffers",
				 cap->path, (unsigned long long)r->offset - 16,
				 (unsigned long long)r->len, s->subbuf_size);
			return -EINVAL;
		}
		s->total_bytes += r->len;
	}
	s->ncursors = s->split.ncpus;
	s->cursors = calloc(s->ncursors ? s->ncursors : 1, sizeof(*s->cursors));
	if (!s->cursors || f2t_minheap_init(&s->heap, s->ncursors, offsetof(struct cursor, w.ts), cursor_next, s))
		return -ENOMEM;
	for (uint32_t c = 0; c < s->ncursors; c++) {
		s->cursors[c].cpu = c;
		s->cursors[c].recs = s->split.cpu[c].recs;
		s->cursors[c].nrecs = s->split.cpu[c].n;
		/* Only CPUs with data: the capture chooses the sub-buffer size and the CPUs. */
		if (s->cursors[c].nrecs)
			s->cursors[c].copy = calloc(1, (size_t)s->subbuf_size + F2T_RBWALK_SLACK);
		if (s->cursors[c].nrecs && !s->cursors[c].copy)
			return -ENOMEM;
	}
	return 0;
}



/* ---- walking one CPU's sub-buffers ---- */

/*
 * Drops what every cursor has consumed from our mapping, so resident memory
 * stays flat however large the capture.  Each cursor reads its own CPU's
 * records in file order, so everything before the earliest record still in
 * use by any cursor is done with.  Records are often a single sub-buffer and
 * not page-aligned, hence the low-water mark rather than record by record.
 */
static void release_consumed(struct f2t_capsrc *s)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uint64_t low = s->cap->size;
	uintptr_t from, to;

	for (uint32_t i = 0; i < s->ncursors; i++) {
		const struct cursor *c = &s->cursors[i];

		if (c->ri < c->nrecs && s->cap->recs[c->recs[c->ri]].offset < low)
			low = s->cap->recs[c->recs[c->ri]].offset;
	}
	from = ((uintptr_t)s->cap->map + s->released + page - 1) & ~(page - 1);
	to = ((uintptr_t)s->cap->map + low) & ~(page - 1);
	if (to > from + (1u << 20)) {	/* in steps of a megabyte or more */
		madvise((void *)from, to - from, MADV_DONTNEED);
		s->released = to - (uintptr_t)s->cap->map;
	}
}

/*
 * The last sub-buffer of a record, after which the mapping may end, is read
 * from a copy followed by zeroed slack (rbwalk.h).  Never inline: once a
 * sub-buffer, it would make cursor_next(), once an event, too big to be
 * inlined itself.
 */
static __attribute__((noinline)) int cursor_load_page(struct f2t_capsrc *s, struct cursor *c)
{
	for (;;) {
		const struct f2t_cap_rec *r;
		const unsigned char *page;
		int ret;

		if (c->ri >= c->nrecs) {
			c->w.data = NULL;
			return 0;
		}
		r = &s->cap->recs[c->recs[c->ri]];
		if (c->pos >= r->len) {
			c->ri++;
			c->pos = 0;
			release_consumed(s);
			continue;
		}
		page = (const unsigned char *)r->data + c->pos;
		if (c->pos + s->subbuf_size + F2T_RBWALK_SLACK > r->len) {
			memcpy(c->copy, page, s->subbuf_size);
			page = c->copy;
		}
		c->page_off = r->offset + c->pos;
		c->pos += s->subbuf_size;
		s->done_bytes += s->subbuf_size;
		ret = f2t_rbwalk_load(&c->w, page, s->subbuf_size);
		if (ret < 0) {
			f2t_err("%s: offset %llu: cpu %u: corrupt ring-buffer page (bad commit size)",
				 s->cap->path, (unsigned long long)c->page_off, c->cpu);
			return ret;
		}
		if (c->w.lost)
			s->lost_pages++;
		if (ret)
			return 1;
	}
}

/*
 * Moves a cursor to its next event: its first page's first, the first
 * time.  Inline in capsrc_next(), a call an event where the heap called it.
 */
static inline int cursor_next(void *input, void *ctx)
{
	struct cursor *c = input;

	if (c->started && f2t_rbwalk_next(&c->w))
		return 1;
	c->started = true;
	return cursor_load_page(ctx, c);
}

static int capsrc_next(struct f2t_source *src, struct f2t_event *ev)
{
	struct f2t_capsrc *s = (struct f2t_capsrc *)src;

	for (;;) {
		struct cursor *c;
		int ret;

		ret = f2t_minheap_next_by(&s->heap, (void **)&c, cursor_next);
		if (ret <= 0)
			return ret;
		if (c->w.ts < s->from_ns)
			continue;
		ev->ts = c->w.ts;
		ev->cpu = c->cpu;
		ev->src = &s->base;
		ev->pid_comm = NULL;
		if (c->w.lost) {
			*ev = (struct f2t_event){
				.ts = c->w.ts, .cpu = c->cpu, .src = &s->base, .pid = -1,
				.kind = F2T_EV_LOST, .lost.count = c->w.lost_count,
			};
			s->lost_events += c->w.lost_count;
			return 1;
		}
		if (!f2t_rbwalk_event_fits(&c->w)) {
			f2t_err("%s: offset %llu: cpu %u: an event lies past the end of its page or before the one before it",
				s->cap->path, (unsigned long long)c->page_off, c->cpu);
			return -EINVAL;
		}
		ret = f2t_rawdec_decode(&s->dec, c->w.data, c->w.size, c->w.ts, c->cpu, ev);
		if (ret)
			return ret;
		/* ret == 0: a record we count and skip */
	}
}

static void capsrc_counts(const struct f2t_source *src, struct f2t_stats *st)
{
	const struct f2t_capsrc *s = (const struct f2t_capsrc *)src;

	st->lost_marked += s->lost_events;
	st->lost_pages += s->lost_pages;
	f2t_rawdec_counts(&s->dec, st);
	if (s->ncursors > st->ncpus)
		st->ncpus = s->ncursors;
}

static void capsrc_progress(const struct f2t_source *src, uint64_t *done, uint64_t *total)
{
	const struct f2t_capsrc *s = (const struct f2t_capsrc *)src;

	*done = s->done_bytes;
	*total = s->total_bytes;
}

static void capsrc_close(struct f2t_source *src)
{
	struct f2t_capsrc *s = (struct f2t_capsrc *)src;

	for (uint32_t c = 0; c < s->ncursors; c++)
		free(s->cursors[c].copy);
	free(s->cursors);
	f2t_cap_cpus_free(&s->split);
	f2t_minheap_free(&s->heap);
	f2t_rawdec_fini(&s->dec);
	if (s->own_tep)
		tep_free(s->tep);
	free(s);
}

static const char *capsrc_text(struct f2t_source *src, const struct f2t_event *ev,
			       const struct f2t_task *task, size_t *len)
{
	return f2t_rawdec_text(&((struct f2t_capsrc *)src)->dec, ev, task, len);
}

static int capsrc_fields(struct f2t_source *src, const struct f2t_event *ev, f2t_field_fn fn,
			 void *ctx)
{
	return f2t_rawdec_fields(&((struct f2t_capsrc *)src)->dec, ev, fn, ctx);
}

static const struct f2t_source_ops capsrc_ops = {
	.next = capsrc_next,
	.text = capsrc_text,
	.fields = capsrc_fields,
	.counts = capsrc_counts,
	.progress = capsrc_progress,
	.close = capsrc_close,
};

struct f2t_source *f2t_capsrc_open_with(const struct f2t_capr *cap,
					const struct f2t_recording *rec, struct tep_handle *tep,
					bool *tep_symbols)
{
	struct f2t_capsrc *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		ret = -ENOMEM;
		goto out;
	}
	s->base.ops = &capsrc_ops;
	s->cap = cap;
	s->subbuf_size = (uint32_t)tep_get_page_size(tep);	/* as f2t_capsrc_formats() read it */
	if (read_meta_u64(cap, "flight_from_ns", &s->from_ns) || !clock_is_mono(cap))
		s->from_ns = 0;	/* CLOCK_MONOTONIC's time: no other clock compares with it */
	s->tep = tep;
	ret = f2t_rawdec_init(&s->dec, s->tep, s->subbuf_size, rec, cap->path);
	if (ret)
		goto out;
	if (tep_symbols)
		f2t_rawdec_share_tep(&s->dec, tep_symbols);
	ret = setup_cursors(s);
	if (ret)
		goto out;
	for (uint32_t c = 0; !ret && c < s->ncursors; c++)
		ret = f2t_minheap_add(&s->heap, &s->cursors[c]);
out:
	if (ret) {
		if (ret == -ENOMEM)
			f2t_err("%s: out of memory", cap->path);
		if (s)
			capsrc_close(&s->base);
		errno = -ret;
		return NULL;
	}
	return &s->base;
}

struct f2t_source *f2t_capsrc_open(const struct f2t_capr *cap, const struct f2t_recording *rec)
{
	struct tep_handle *tep = f2t_capsrc_formats(cap);
	struct f2t_capsrc *s;

	if (!tep)
		return NULL;
	s = (struct f2t_capsrc *)f2t_capsrc_open_with(cap, rec, tep, NULL);
	if (!s) {
		int err = errno;

		tep_free(tep);
		errno = err;
		return NULL;
	}
	s->own_tep = true;
	return &s->base;
}
