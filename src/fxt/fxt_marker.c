// SPDX-License-Identifier: MIT
/*
 * trace_marker writes as FXT event records.  Names and categories repeat
 * (a slice name, "marker"), so they go through the writer's string table;
 * free text and argument values are mostly unique, so they are inline and
 * do not churn it.  Every record is on the writing thread, with the task
 * table's process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/marker_track.h"
#include "fxt/fxt_marker.h"

#define MAX_TEXT_LEN	256	/* free text as an instant's name is cut here */
#define MAX_VALUE_LEN	4096	/* an argument's text is cut here */
#define MAX_ARGS	6

struct fxt_markers {
	const struct fxt_marker_io *io;
	struct f2t_mtrack *track;
	uint64_t argw[MAX_ARGS * (2 + MAX_VALUE_LEN / 8)];
	uint64_t rec[FXT_MAX_RECORD_WORDS];
};

/* Arguments being collected for one record. */
struct argv_ {
	struct fxt_markers *m;
	struct f2t_writer *w;
	struct fxt_args args;
	int err;
};

struct fxt_markers *fxt_markers_new(const struct fxt_marker_io *io)
{
	struct fxt_markers *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->io = io;
	m->track = f2t_mtrack_new();
	if (!m->track) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void fxt_markers_free(struct fxt_markers *m)
{
	if (!m)
		return;
	f2t_mtrack_free(m->track);
	free(m);
}

static int intern(struct argv_ *a, const char *s, size_t len, struct fxt_str *ref)
{
	return a->m->io->string_ref(a->w, s, len, ref);
}

/* Adds one argument: ENC's result (words, or negative errno) is accounted. */
static void added(struct argv_ *a, int n)
{
	if (n < 0) {
		a->err = n;
		return;
	}
	a->args.nwords = (uint16_t)(a->args.nwords + n);
	a->args.count++;
}

/* Room left for arguments, in words. */
static uint64_t *arg_dst(struct argv_ *a)
{
	return a->m->argw + a->args.nwords;
}

static void arg_text(struct argv_ *a, const char *name, const char *s, size_t len)
{
	struct fxt_str k;

	if (a->err || a->args.count >= MAX_ARGS)
		return;
	a->err = intern(a, name, strlen(name), &k);
	if (a->err)
		return;
	if (len > MAX_VALUE_LEN)
		len = MAX_VALUE_LEN;
	added(a, fxt_arg_string(arg_dst(a), k, fxt_str_inline(s, len)));
}

static void arg_i64(struct argv_ *a, const char *name, int64_t v)
{
	struct fxt_str k;

	if (a->err || a->args.count >= MAX_ARGS)
		return;
	a->err = intern(a, name, strlen(name), &k);
	if (!a->err)
		added(a, fxt_arg_int64(arg_dst(a), k, v));
}

static void arg_double(struct argv_ *a, const char *name, double v)
{
	struct fxt_str k;

	if (a->err || a->args.count >= MAX_ARGS)
		return;
	a->err = intern(a, name, strlen(name), &k);
	if (!a->err)
		added(a, fxt_arg_double(arg_dst(a), k, v));
}

static void arg_bool(struct argv_ *a, const char *name, bool v)
{
	struct fxt_str k;

	if (a->err || a->args.count >= MAX_ARGS)
		return;
	a->err = intern(a, name, strlen(name), &k);
	if (!a->err)
		added(a, fxt_arg_bool(arg_dst(a), k, v));
}

/* The arguments each kind of record carries besides its name. */
static void record_args(struct argv_ *a, const struct f2t_mrecord *r)
{
	const struct f2t_marker *mk = &r->m;

	switch (r->rec) {
	case F2T_MREC_COUNTER:
		if (mk->value_is_double)
			arg_double(a, "value", mk->dvalue);
		else
			arg_i64(a, "value", mk->ivalue);
		return;
	case F2T_MREC_ASYNC_BEGIN:
	case F2T_MREC_ASYNC_END:
		arg_i64(a, "cookie", mk->cookie);
		if (mk->track.len)
			arg_text(a, "track", mk->track.s, mk->track.len);
		break;
	case F2T_MREC_CLOCK_SYNC:
		arg_text(a, "sync_id", r->sync_id.s, r->sync_id.len);
		if (mk->has_parent_ts)
			arg_text(a, "parent_ts", mk->parent_ts.s, mk->parent_ts.len);
		break;
	case F2T_MREC_INSTANT:
		if (mk->kind == F2T_MARKER_CLOCK_SYNC) {
			/* A clock sync whose id was already written. */
			arg_text(a, "sync_id", r->sync_id.s, r->sync_id.len);
			arg_bool(a, "repeated", r->repeated_sync);
			return;
		}
		if (mk->track.len)
			arg_text(a, "track", mk->track.s, mk->track.len);
		if (r->malformed)
			arg_text(a, "malformed", r->malformed, strlen(r->malformed));
		break;
	default:
		break;
	}
	/* What follows a marker's own fields, kept as the writer wrote it. */
	if (mk->kind != F2T_MARKER_TEXT && mk->kind != F2T_MARKER_COUNTER && mk->args.len)
		arg_text(a, "args", mk->args.s, mk->args.len);
}

int fxt_markers_event(struct fxt_markers *m, struct f2t_writer *w, const struct f2t_event *ev)
{
	const struct fxt_marker_io *io = m->io;
	struct argv_ a = { .m = m, .w = w, .args = { .words = m->argw } };
	struct fxt_event_head e = { .ts = ev->ts, .args = &a.args };
	struct f2t_mrecord r;
	struct f2t_task *t;
	int ret;

	ret = io->ensure_named(w, ev->pid, &t);
	if (!ret)
		ret = f2t_mtrack_event(m->track, ev, t->tgid, &r);
	if (ret)
		return ret;
	if (r.rec == F2T_MREC_NONE)
		return 0;
	/* Everything the record refers to is interned before it is encoded. */
	ret = io->thread_ref(w, (uint64_t)r.tgid, (uint64_t)r.tid, &e.thread);
	if (!ret)
		ret = io->string_ref(w, r.category.s, r.category.len, &e.category);
	if (ret)
		return ret;
	if (r.m.kind == F2T_MARKER_TEXT)
		/* Mostly unique: inline, so it does not churn the table. */
		e.name = fxt_str_inline(r.name.s, r.name.len < MAX_TEXT_LEN ?
					r.name.len : MAX_TEXT_LEN);
	else
		ret = io->string_ref(w, r.name.s, r.name.len, &e.name);
	if (ret)
		return ret;
	record_args(&a, &r);
	if (a.err)
		return a.err;

	switch (r.rec) {
	case F2T_MREC_BEGIN:
		ret = fxt_duration_begin(m->rec, &e);
		break;
	case F2T_MREC_END:
		ret = fxt_duration_end(m->rec, &e);
		break;
	case F2T_MREC_COUNTER:
		/*
		 * One series per process and name; Perfetto names the track
		 * NAME:value:ID, so the process id makes a readable ID.
		 */
		ret = fxt_counter(m->rec, &e, (uint64_t)(uint32_t)r.tgid);
		break;
	case F2T_MREC_ASYNC_BEGIN:
		ret = fxt_async_begin(m->rec, &e, r.async_id);
		break;
	case F2T_MREC_ASYNC_END:
		ret = fxt_async_end(m->rec, &e, r.async_id);
		break;
	default:	/* INSTANT, CLOCK_SYNC: FXT has no clock sync record */
		ret = fxt_instant(m->rec, &e);
		break;
	}
	if (ret < 0)
		return ret;
	io->emit(w, m->rec, ret);
	return 0;
}

int fxt_markers_end(struct fxt_markers *m, struct f2t_writer *w, uint64_t ts)
{
	struct f2t_mcounts c;
	uint64_t argw[2 * 8];
	struct fxt_args args = { .words = argw };
	struct fxt_event_head e = { .ts = ts, .thread = fxt_thread_inline(0, 0), .args = &args };
	int ret;

	f2t_mtrack_counts(m->track, &c);
	f2t_mtrack_report(m->track, w->info);
	if (!c.markers)
		return 0;
	const struct { const char *name; uint64_t v; } counts[] = {
		{ "markers", c.markers },
		{ "malformed", c.malformed },
		{ "unmatched_ends", c.unmatched_ends },
		{ "unmatched_async_ends", c.unmatched_async_ends },
		{ "repeated_sync_ids", c.repeated_sync_ids },
		{ "open_slices", c.open_slices },
		{ "open_async", c.open_async },
	};

	ret = m->io->string_ref(w, "ftrace2trace", strlen("ftrace2trace"), &e.category);
	if (!ret)
		ret = m->io->string_ref(w, "ftrace2trace_markers",
					strlen("ftrace2trace_markers"), &e.name);
	for (size_t i = 0; !ret && i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct fxt_str k;

		ret = m->io->string_ref(w, counts[i].name, strlen(counts[i].name), &k);
		if (!ret) {
			args.nwords = (uint16_t)(args.nwords +
						 fxt_arg_uint64(argw + args.nwords, k, counts[i].v));
			args.count++;
		}
	}
	if (!ret)
		ret = fxt_instant(m->rec, &e);
	if (ret < 0)
		return ret;
	m->io->emit(w, m->rec, ret);
	return 0;
}
