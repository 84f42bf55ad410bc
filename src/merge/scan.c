// SPDX-License-Identifier: MIT
/*
 * The merge's first pass over an input: check the whole file is JSON, note
 * where each top-level section starts, and collect the clock_sync events
 * the offsets are computed from.  Nothing else is kept, so a trace of any
 * size costs the same memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "merge/decimal.h"
#include "merge/input.h"
#include "merge/jvalue.h"
#include "util/infile.h"
#include "util/log.h"
#include "util/vec.h"

/* Warnings about bad clock_sync events shown per input; the rest are counted. */
#define MAX_SYNC_WARNINGS 5
/* "ts" / "issue_ts" longer than this are not timestamps. */
#define MAX_TS_LEN 63

const char *const f2t_msect_names[F2T_MS_COUNT] = {
	[F2T_MS_EVENTS] = "traceEvents",
	[F2T_MS_SYSTEM] = "systemTraceEvents",
	[F2T_MS_SAMPLES] = "samples",
	[F2T_MS_FRAMES] = "stackFrames",
	[F2T_MS_OTHER] = "otherData",
	[F2T_MS_META] = "metadata",
	[F2T_MS_DTU] = "displayTimeUnit",
};

int64_t f2t_msync_time(const struct f2t_msync *s)
{
	/*
	 * An issuer knows only that the receiver recorded the sync between
	 * issue_ts and ts: take the middle, as Trace Viewer does.  Halving the
	 * difference first cannot overflow.
	 */
	if (s->issuer)
		return s->issue_ns + (s->ts_ns - s->issue_ns) / 2;
	return s->ts_ns;
}

/* What the first pass learns from one event object. */
struct ev_facts {
	bool name_is_sync, ph_is_c;
	bool has_ts, has_issue, has_id, id_too_long;
	char ts[MAX_TS_LEN + 1], issue[MAX_TS_LEN + 1];
	char id[F2T_MSYNC_ID_MAX + 1];
};

/* The lexer's number token into BUF, if short enough to be a timestamp. */
static bool take_number(const struct f2t_jlex *lx, char *buf)
{
	if (lx->text_len > MAX_TS_LEN)
		return false;
	memcpy(buf, lx->text, lx->text_len + 1);
	return true;
}

/* A string member: true if it equals WANT; other values are skipped. */
static int string_is(struct f2t_jlex *lx, const char *want, bool *is)
{
	int tok = f2t_jlex_next(lx);

	if (tok < 0)
		return tok;
	if (tok != F2T_JT_STRING)
		return f2t_jvalue_skip_rest(lx);
	*is = f2t_jlex_text_is(lx, want);
	return 0;
}

static int scan_args(struct f2t_jlex *lx, struct ev_facts *e)
{
	bool first = true;
	int r, tok;

	tok = f2t_jlex_next(lx);	/* the '{' the caller peeked */
	if (tok < 0)
		return tok;
	while ((r = f2t_jobj_next(lx, first, NULL, false)) == 1) {
		first = false;
		if (f2t_jlex_text_is(lx, "sync_id") || f2t_jlex_text_is(lx, "issue_ts")) {
			bool is_id = f2t_jlex_text_is(lx, "sync_id");

			tok = f2t_jlex_next(lx);
			if (tok < 0)
				return tok;
			if (is_id && tok == F2T_JT_STRING) {
				e->id_too_long = lx->text_trunc || lx->text_len > F2T_MSYNC_ID_MAX;
				e->has_id = !e->id_too_long;
				if (e->has_id)
					memcpy(e->id, lx->text, lx->text_len + 1);
			} else if (!is_id && tok == F2T_JT_NUMBER) {
				e->has_issue = take_number(lx, e->issue);
			} else {
				r = f2t_jvalue_skip_rest(lx);
			}
		} else {
			r = f2t_jvalue_skip(lx);
		}
		if (r < 0)
			return r;
	}
	return r;
}

static void sync_warning(struct f2t_minput *in, uint64_t index, const char *what)
{
	if (++in->bad_syncs <= MAX_SYNC_WARNINGS)
		f2t_warn("%s: clock_sync event (traceEvents[%llu]) %s; not used to align clocks%s",
			 in->path, (unsigned long long)index, what,
			 in->bad_syncs == MAX_SYNC_WARNINGS ? " (further ones not shown)" : "");
}

/* Keeps E as a sync point of IN if it is one. */
static int add_sync(struct f2t_minput *in, uint64_t index, const struct ev_facts *e)
{
	struct f2t_msync s = { .index = index };
	struct f2t_msync *grown;

	if (!e->has_id) {
		sync_warning(in, index, e->id_too_long ? "has a sync_id longer than 256 bytes" :
				       "has no args.sync_id string");
		return 0;
	}
	if (!e->has_ts || f2t_dec_us_to_ns(e->ts, strlen(e->ts), &s.ts_ns)) {
		sync_warning(in, index, "has no usable ts");
		return 0;
	}
	if (e->has_issue) {
		if (f2t_dec_us_to_ns(e->issue, strlen(e->issue), &s.issue_ns)) {
			sync_warning(in, index, "has an unusable args.issue_ts");
			return 0;
		}
		s.issuer = true;
	}
	s.id = strdup(e->id);
	grown = s.id ? f2t_vec_push(&in->syncs, &in->nsyncs, &in->syncs_cap, 16) : NULL;
	if (!grown) {
		free(s.id);
		return -ENOMEM;
	}
	*grown = s;
	return 0;
}

/* One event object (its '{' peeked): only clock_sync events matter. */
static int scan_event(struct f2t_jlex *lx, struct f2t_minput *in, uint64_t index)
{
	struct ev_facts e;
	bool first = true;
	int r, tok;

	e.name_is_sync = e.ph_is_c = e.has_ts = e.has_issue = e.has_id = e.id_too_long = false;
	tok = f2t_jlex_next(lx);
	if (tok < 0)
		return tok;
	while ((r = f2t_jobj_next(lx, first, NULL, false)) == 1) {
		first = false;
		if (f2t_jlex_text_is(lx, "name")) {
			r = string_is(lx, "clock_sync", &e.name_is_sync);
		} else if (f2t_jlex_text_is(lx, "ph")) {
			r = string_is(lx, "c", &e.ph_is_c);
		} else if (f2t_jlex_text_is(lx, "ts")) {
			tok = f2t_jlex_next(lx);
			if (tok < 0)
				return tok;
			if (tok == F2T_JT_NUMBER)
				e.has_ts = take_number(lx, e.ts);
			else
				r = f2t_jvalue_skip_rest(lx);
		} else if (f2t_jlex_text_is(lx, "args") && f2t_jlex_peek(lx) == '{') {
			r = scan_args(lx, &e);
		} else {
			r = f2t_jvalue_skip(lx);
		}
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	return e.name_is_sync && e.ph_is_c ? add_sync(in, index, &e) : 0;
}

static void drop_syncs(struct f2t_minput *in)
{
	for (size_t i = 0; i < in->nsyncs; i++)
		free(in->syncs[i].id);
	free(in->syncs);
	in->syncs = NULL;
	in->nsyncs = in->syncs_cap = 0;
}

/* The elements of traceEvents, its '[' consumed. */
static int scan_events(struct f2t_jlex *lx, struct f2t_minput *in)
{
	uint64_t index = 0;
	bool first = true;
	int r;

	/* A traceEvents given twice: the last one counts, as in JSON.parse. */
	drop_syncs(in);
	while ((r = f2t_jarr_next(lx, first, in->array_form)) == 1) {
		first = false;
		r = f2t_jlex_peek(lx) == '{' ? scan_event(lx, in, index) : f2t_jvalue_skip(lx);
		if (r < 0)
			return r;
		index++;
	}
	in->nevents = index;
	if (r == 2) {
		/* The format allows it: a program killed while writing its trace. */
		in->cut_short = true;
		f2t_warn("%s: the event array has no closing ']' (cut short?); "
			 "taking the %llu events before the end", in->path,
			 (unsigned long long)index);
		return 0;
	}
	return r;
}

static int add_extra(struct f2t_jlex *lx, struct f2t_minput *in, const struct f2t_jpos *at)
{
	struct f2t_mextra *grown;
	char *key;

	if (lx->text_trunc)
		return f2t_jlex_fail(lx, &lx->tok_pos, "top-level member name longer than %d bytes",
				     F2T_JLEX_TEXT_MAX);
	key = strndup(lx->text, lx->text_len);
	grown = key ? f2t_vec_push(&in->extra, &in->nextra, &in->extra_cap, 16) : NULL;
	if (!grown) {
		free(key);
		return -ENOMEM;
	}
	*grown = (struct f2t_mextra){ key, *at };
	return 0;
}

/* Which section a top-level member name is, or F2T_MS_COUNT. */
static enum f2t_msect section_of(const struct f2t_jlex *lx)
{
	for (int s = 0; s < F2T_MS_COUNT; s++)
		if (f2t_jlex_text_is(lx, f2t_msect_names[s]))
			return (enum f2t_msect)s;
	return F2T_MS_COUNT;
}

/* The members of the top-level object, its '{' consumed. */
static int scan_object(struct f2t_jlex *lx, struct f2t_minput *in)
{
	bool first = true;
	int r, c;

	while ((r = f2t_jobj_next(lx, first, NULL, false)) == 1) {
		enum f2t_msect s = section_of(lx);
		struct f2t_jpos at;
		char want = 0;

		first = false;
		c = f2t_jlex_peek(lx);
		if (c < 0)
			return c;
		f2t_jlex_where(lx, &at);
		if (s == F2T_MS_EVENTS || s == F2T_MS_SAMPLES)
			want = '[';
		else if (s == F2T_MS_FRAMES || s == F2T_MS_OTHER || s == F2T_MS_META)
			want = '{';
		if (want && c != want)
			return f2t_jlex_fail(lx, &at, "%s is not an %s", f2t_msect_names[s],
					     want == '[' ? "array" : "object");
		if (s == F2T_MS_COUNT) {
			r = add_extra(lx, in, &at);
			if (r < 0)
				return r;
		} else {
			if (in->has[s])
				f2t_warn("%s: %s appears twice; the last one counts", in->path,
					 f2t_msect_names[s]);
			in->has[s] = true;
			in->at[s] = at;
		}
		if (s == F2T_MS_EVENTS) {
			r = f2t_jlex_next(lx);
			r = r < 0 ? r : scan_events(lx, in);
		} else {
			r = f2t_jvalue_skip(lx);
		}
		if (r < 0)
			return r;
	}
	return r;
}

int f2t_minput_scan(struct f2t_minput *in)
{
	struct f2t_jlex lx;
	int err, tok;

	err = f2t_jlex_open(&lx, in->file);
	if (err) {
		f2t_err("%s: %s", in->path, strerror(-err));
		return err;
	}
	if (fstat(lx.fd, &in->st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(in->st.st_mode)) {
		f2t_err("%s: not a regular file (merge reads each input twice)", in->path);
		f2t_jlex_fini(&lx);	/* said: not again as "Invalid argument" */
		return -EINVAL;
	}
	tok = f2t_jlex_next(&lx);
	if (tok < 0) {
		err = tok;
	} else if (tok == F2T_JT_LBRACK) {
		in->array_form = true;
		in->has[F2T_MS_EVENTS] = true;
		in->at[F2T_MS_EVENTS] = lx.tok_pos;
		err = scan_events(&lx, in);
	} else if (tok == F2T_JT_LBRACE) {
		err = scan_object(&lx, in);
	} else {
		err = f2t_jlex_fail(&lx, &lx.tok_pos,
				    "expected a trace ('{' or '['), found %s",
				    f2t_jtok_name((enum f2t_jtok)tok));
	}
	if (!err && !in->cut_short)
		err = f2t_jlex_expect(&lx, F2T_JT_EOF, "after the trace");
	if (!err)
		f2t_info("%s: %s form, %llu events, %zu usable clock_sync events%s%s", in->path,
			 in->array_form ? "array" : "object", (unsigned long long)in->nevents,
			 in->nsyncs, in->nsyncs ? ", the first with id " : "",
			 in->nsyncs ? in->syncs[0].id : "");
out:
	if (err)
		f2t_jlex_report(&lx, err);
	f2t_jlex_fini(&lx);
	return err;
}

int f2t_minput_open_at(const struct f2t_minput *in, struct f2t_jlex *lx,
		       const struct f2t_jpos *at)
{
	struct stat st;
	int err = f2t_jlex_open(lx, in->file);

	if (err) {
		f2t_err("%s: %s", in->path, strerror(-err));
		return err;
	}
	if (fstat(lx->fd, &st) < 0) {
		err = -errno;
		f2t_err("%s: %s", in->path, strerror(-err));
		goto out;
	}
	/* The second pass trusts the first one's positions: the file must not move. */
	if (!f2t_infile_unchanged(&in->st, &st)) {
		f2t_err("%s: changed while it was being merged", in->path);
		err = -ESTALE;
		goto out;
	}
	err = f2t_jlex_seek(lx, at);
	if (err)
		f2t_err("%s: %s", in->path, strerror(-err));
out:
	if (err)
		f2t_jlex_fini(lx);
	return err;
}

void f2t_minput_fini(struct f2t_minput *in)
{
	drop_syncs(in);
	for (size_t i = 0; i < in->nextra; i++)
		free(in->extra[i].key);
	free(in->extra);
	in->extra = NULL;
	in->nextra = in->extra_cap = 0;
}
