// SPDX-License-Identifier: MIT
/*
 * A trace.dat buffer read by libtracecmd, record by record: for the files
 * whose timestamps it converts (offsets, guest time shifts, TSC scaling) or
 * whose CPU data we do not read (f2t_tracedat_pages_unreadable()).  Its
 * kbuffer trusts the records' lengths, so each is checked to lie inside
 * its page, and after the one before it, before it is decoded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source/tracedat/tracedat_bufsrc-local.h"
#include "source/tracedat/tracecmd-private.h"
#include "util/infile.h"
#include "util/log.h"

struct cursor {
	uint32_t cpu;
	uint64_t ts;		/* the pending record's, where the heap reads it */
	struct tep_record *rec;	/* pending; NULL when the CPU is done */
	bool lost_note;		/* an F2T_EV_LOST goes out before rec */
	uint64_t last_offset;	/* the file offset of the record before rec */
};

struct tcmsrc {
	struct tracedat_bufsrc b;
	struct tracecmd_input *handle;
	bool own_handle;	/* an instance's; the top one is the input's */
	uint32_t page;		/* its ring-buffer page size */
	struct cursor *cursors;
	uint32_t ncursors;
	struct tep_record *done;	/* handed out last; freed on the next call */
	int fd;			/* the input, to see at the end whether it changed */
	struct stat at_open;
};

/*
 * libtracecmd reads a file cut short as one that ends there: a trace.dat
 * truncated or rewritten while it read it would make a shorter trace and
 * no error.  So at the end the file must be what it was when read began.
 */
static int unchanged(const struct tcmsrc *s)
{
	struct stat now;

	if (fstat(s->fd, &now) < 0)
		return -errno;
	if (f2t_infile_unchanged(&s->at_open, &now))
		return 0;
	f2t_err("%s: changed while being read: another program truncated or rewrote it", s->b.path);
	return -EIO;
}

static int cursor_next(void *input, void *ctx)
{
	struct cursor *c = input;
	struct tcmsrc *s = ctx;

	if (c->lost_note) {	/* the note went out; now its record */
		c->lost_note = false;
		return 1;
	}
	c->rec = tracecmd_read_data(s->handle, (int)c->cpu);
	if (!c->rec)
		return 0;
	c->ts = c->rec->ts;
	if (c->rec->missed_events) {
		c->lost_note = true;
		s->b.lost_pages++;
	}
	return 1;
}

/* The pending record of C, or a lost note (then *DATA is NULL and *MISSED set): 0 or -EINVAL. */
static int cursor_record(struct tcmsrc *s, struct cursor *c, void **data, int *size,
			 uint64_t *missed)
{
	*data = NULL;
	*missed = c->rec->missed_events > 0 ? (uint64_t)c->rec->missed_events : 0;
	if (c->lost_note)
		return 0;
	s->done = c->rec;
	if (c->rec->size < 8) {
		f2t_err("%s: offset %llu: cpu %u: record of %d bytes is too short",
			s->b.path, c->rec->offset, c->cpu, c->rec->size);
		return -EINVAL;
	}
	/*
	 * kbuffer takes an event's length as the page says, past the page's
	 * end.  libtracecmd reads pages at offsets that are multiples of the
	 * page size, and the record's offset is where its header is.
	 */
	if ((c->rec->offset & (s->page - 1)) + (uint64_t)c->rec->record_size > s->page) {
		f2t_err("%s: offset %llu: cpu %u: event runs past the end of its page",
			s->b.path, c->rec->offset, c->cpu);
		return -EINVAL;
	}
	/* A hostile length word can step kbuffer back, round a page for ever (rbwalk.h). */
	if (c->rec->offset <= c->last_offset &&
	    c->rec->offset / s->page == c->last_offset / s->page) {
		f2t_err("%s: offset %llu: cpu %u: an event lies before the one before it",
			s->b.path, c->rec->offset, c->cpu);
		return -EINVAL;
	}
	c->last_offset = c->rec->offset;
	*data = c->rec->data;
	*size = c->rec->size;
	return 0;
}

static int tcmsrc_next(struct f2t_source *src, struct f2t_event *ev)
{
	struct tcmsrc *s = (struct tcmsrc *)src;

	for (;;) {
		struct cursor *c;
		uint64_t missed;
		void *data;
		int ret, size = 0;

		/* The record handed out last is done with unless a lost note went first. */
		if (s->done) {
			tracecmd_free_record(s->done);
			s->done = NULL;
		}
		ret = f2t_minheap_next(&s->b.heap, (void **)&c);
		if (!ret)
			return unchanged(s);
		if (ret < 0)
			return ret;
		ret = cursor_record(s, c, &data, &size, &missed) ?:
		      f2t_tracedat_bufsrc_event(&s->b, ev, c->ts, c->cpu, data, size, missed);
		if (ret)
			return ret;
	}
}

/* libtracecmd says nothing of how far it has read. */
static void tcmsrc_progress(const struct f2t_source *src, uint64_t *done, uint64_t *total)
{
}

static void tcmsrc_close(struct f2t_source *src)
{
	struct tcmsrc *s = (struct tcmsrc *)src;

	if (s->done)
		tracecmd_free_record(s->done);
	for (uint32_t i = 0; s->cursors && i < s->ncursors; i++)
		if (s->cursors[i].rec && s->cursors[i].rec != s->done)
			tracecmd_free_record(s->cursors[i].rec);
	free(s->cursors);
	f2t_tracedat_bufsrc_fini(&s->b);
	if (s->own_handle)
		tracecmd_close(s->handle);
	free(s);
}

static const struct f2t_source_ops tcmsrc_ops = {
	.next = tcmsrc_next,
	.text = f2t_tracedat_bufsrc_text,
	.fields = f2t_tracedat_bufsrc_fields,
	.counts = f2t_tracedat_bufsrc_counts,
	.progress = tcmsrc_progress,
	.close = tcmsrc_close,
};

struct f2t_source *f2t_tracedat_tcmsrc_open(struct tracecmd_input *handle, bool own_handle,
					    int ncpus, uint32_t page, const struct f2t_recording *rec,
					    int fd, uint64_t *first_ts)
{
	struct tcmsrc *s = calloc(1, sizeof(*s));
	unsigned long said = f2t_errors();
	int ret;

	if (!s) {
		if (own_handle)
			tracecmd_close(handle);
		f2t_err("%s: out of memory", rec->path);
		errno = ENOMEM;
		return NULL;
	}
	s->handle = handle;
	s->own_handle = own_handle;
	s->fd = fd;
	if (fstat(fd, &s->at_open) < 0)
		memset(&s->at_open, 0, sizeof(s->at_open));
	s->page = page;
	s->b.ncpus = ncpus > 0 ? (uint32_t)ncpus : 0;
	s->ncursors = s->b.ncpus;
	ret = f2t_tracedat_bufsrc_init(&s->b, &tcmsrc_ops, tracecmd_get_tep(handle), page, rec);
	if (!ret && (!(s->cursors = calloc(s->ncursors ? s->ncursors : 1, sizeof(*s->cursors))) ||
		     f2t_minheap_init(&s->b.heap, s->ncursors, offsetof(struct cursor, ts),
				      cursor_next, s)))
		ret = -ENOMEM;
	for (uint32_t i = 0; !ret && i < s->ncursors; i++) {
		s->cursors[i].cpu = i;
		ret = f2t_minheap_add(&s->b.heap, &s->cursors[i]);
		if (!ret && s->cursors[i].ts < *first_ts && s->cursors[i].rec)
			*first_ts = s->cursors[i].ts;
	}
	if (ret) {
		if (ret == -ENOMEM && f2t_errors() == said)
			f2t_err("%s: out of memory", rec->path);
		tcmsrc_close(&s->b.base);
		errno = -ret;
		return NULL;
	}
	return &s->b.base;
}
