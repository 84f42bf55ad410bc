// SPDX-License-Identifier: MIT
/*
 * Copying sections, member by member where something must change and byte
 * for byte (through the lexer's tee) everywhere else, so what merge does
 * not understand it does not alter.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "merge/copy.h"
#include "merge/decimal.h"
#include "merge/jvalue.h"
#include "json/json_fmt.h"

/* A timestamp member's value: shifted if it is a number. */
static int copy_time(struct f2t_jlex *lx, struct f2t_out *out, struct f2t_minput *in)
{
	char buf[F2T_DEC_OUT_MAX];
	int c = f2t_jlex_peek(lx), n;

	if (c < 0)
		return c;
	if (c != '-' && (c < '0' || c > '9')) {
		/* A string or null: not ours to interpret; counted, left alone. */
		in->unshifted++;
		return f2t_jvalue_copy(lx, out);
	}
	n = f2t_jlex_next(lx);
	if (n < 0)
		return n;
	n = f2t_dec_shift_us(lx->text, lx->text_len, in->offset_ns, buf);
	if (n < 0)
		return f2t_jlex_fail(lx, &lx->tok_pos, "timestamp %s cannot be shifted exactly "
				     "(too many digits or too large an exponent)", lx->text);
	f2t_out_write(out, buf, (size_t)n);
	return 0;
}

static void put_frame_id(struct f2t_out *out, const struct f2t_minput *in, const char *id,
			 size_t len)
{
	char prefix[24];

	snprintf(prefix, sizeof(prefix), "%zu:", in->num);
	f2t_out_putc(out, '"');
	f2t_json_put_escaped(out, prefix, strlen(prefix));
	f2t_json_put_escaped(out, id, len);
	f2t_out_putc(out, '"');
}

/* A stack frame reference ("sf", "esf", "parent"): renamed if a string or number. */
static int copy_frame_ref(struct f2t_jlex *lx, struct f2t_out *out, struct f2t_minput *in)
{
	int c = f2t_jlex_peek(lx), tok;

	if (c < 0)
		return c;
	if (c != '"' && c != '-' && (c < '0' || c > '9'))
		return f2t_jvalue_copy(lx, out);
	tok = f2t_jlex_next(lx);
	if (tok < 0)
		return tok;
	if (lx->text_trunc)
		return f2t_jlex_fail(lx, &lx->tok_pos, "stack frame id longer than %d bytes",
				     F2T_JLEX_TEXT_MAX);
	put_frame_id(out, in, lx->text, lx->text_len);
	return 0;
}

typedef int (*member_copier)(struct f2t_jlex *lx, struct f2t_out *out, struct f2t_minput *in);

/* An object, its '{' peeked, copied with the value of member KEY through FN. */
static int copy_rewriting(struct f2t_jlex *lx, struct f2t_out *out, struct f2t_minput *in,
			  const char *key, member_copier fn)
{
	bool first = true;
	int r = f2t_jlex_next(lx);	/* the '{' the caller peeked */

	if (r < 0)
		return r;
	f2t_out_putc(out, '{');
	while ((r = f2t_jobj_next(lx, first, out, !first)) == 1) {
		first = false;
		if (f2t_jlex_text_is(lx, key))
			r = fn(lx, out, in);
		else
			r = f2t_jvalue_copy(lx, out);
		if (r < 0)
			return r;
	}
	f2t_out_putc(out, '}');
	return r;
}

/* An event or sample object, its '{' peeked. */
static int copy_object(struct f2t_jlex *lx, struct f2t_out *out, struct f2t_minput *in,
		       bool sync)
{
	bool first = true;
	int r = f2t_jlex_next(lx);

	if (r < 0)
		return r;
	f2t_out_putc(out, '{');
	while ((r = f2t_jobj_next(lx, first, out, !first)) == 1) {
		first = false;
		if (in->offset_ns && f2t_jlex_text_is(lx, "ts"))
			r = copy_time(lx, out, in);
		else if (in->rename_frames &&
			 (f2t_jlex_text_is(lx, "sf") || f2t_jlex_text_is(lx, "esf")))
			r = copy_frame_ref(lx, out, in);
		else if (sync && in->offset_ns && f2t_jlex_text_is(lx, "args") &&
			 f2t_jlex_peek(lx) == '{')
			/* issue_ts is on the input's clock too. */
			r = copy_rewriting(lx, out, in, "issue_ts", copy_time);
		else
			r = f2t_jvalue_copy(lx, out);
		if (r < 0)
			return r;
	}
	f2t_out_putc(out, '}');
	return r;
}

/* Prints the lexer's error (or ERR) and closes it; returns ERR. */
static int finish(struct f2t_jlex *lx, int err)
{
	if (err)
		f2t_jlex_report(lx, err);
	f2t_jlex_fini(lx);
	return err;
}

/* Copies the elements of the array at SECT; events also skip unkept syncs. */
static int copy_array(struct f2t_out *out, struct f2t_minput *in, enum f2t_msect sect,
		      bool *first)
{
	const bool events = sect == F2T_MS_EVENTS;
	struct f2t_jlex lx;
	size_t next_sync = 0;
	uint64_t index = 0;
	bool first_in = true;
	int r;

	r = f2t_minput_open_at(in, &lx, &in->at[sect]);
	if (r)
		return r;
	r = f2t_jlex_expect(&lx, F2T_JT_LBRACK, "at the start of the array");
	if (r)
		return finish(&lx, r);
	while ((r = f2t_jarr_next(&lx, first_in, events && in->array_form)) == 1) {
		const struct f2t_msync *s = NULL;

		first_in = false;
		if (events && next_sync < in->nsyncs && in->syncs[next_sync].index == index)
			s = &in->syncs[next_sync++];
		index++;
		if (s && !s->keep) {
			in->dropped_syncs++;
			r = f2t_jvalue_skip(&lx);
		} else {
			f2t_out_puts(out, *first ? "\n" : ",\n");
			*first = false;
			if (f2t_jlex_peek(&lx) == '{')
				r = copy_object(&lx, out, in, s != NULL);
			else
				r = f2t_jvalue_copy(&lx, out);
			in->copied += events;
		}
		if (r < 0)
			break;
	}
	return finish(&lx, r < 0 ? r : 0);
}

int f2t_mcopy_events(struct f2t_out *out, struct f2t_minput *in, bool *first)
{
	return copy_array(out, in, F2T_MS_EVENTS, first);
}

int f2t_mcopy_samples(struct f2t_out *out, struct f2t_minput *in, bool *first)
{
	return copy_array(out, in, F2T_MS_SAMPLES, first);
}

/* At a member name: fails for one too long to rename or compare. */
static int check_name(struct f2t_jlex *lx)
{
	if (lx->text_trunc)
		return f2t_jlex_fail(lx, &lx->tok_pos, "member name longer than %d bytes",
				     F2T_JLEX_TEXT_MAX);
	return 0;
}

int f2t_mcopy_frames(struct f2t_out *out, struct f2t_minput *in, bool *first)
{
	struct f2t_jlex lx;
	bool first_in = true;
	int r;

	r = f2t_minput_open_at(in, &lx, &in->at[F2T_MS_FRAMES]);
	if (r)
		return r;
	r = f2t_jlex_expect(&lx, F2T_JT_LBRACE, "at the start of stackFrames");
	if (r)
		return finish(&lx, r);
	while ((r = f2t_jobj_next(&lx, first_in, in->rename_frames ? NULL : out,
				  !*first)) == 1) {
		first_in = false;
		if (in->rename_frames) {
			r = check_name(&lx);
			if (r < 0)
				break;
			if (!*first)
				f2t_out_putc(out, ',');
			put_frame_id(out, in, lx.text, lx.text_len);
			f2t_out_putc(out, ':');
		}
		*first = false;
		if (in->rename_frames && f2t_jlex_peek(&lx) == '{')
			/* A frame object: "parent" renamed. */
			r = copy_rewriting(&lx, out, in, "parent", copy_frame_ref);
		else
			r = f2t_jvalue_copy(&lx, out);
		if (r < 0)
			break;
	}
	return finish(&lx, r < 0 ? r : 0);
}

int f2t_mcopy_members(struct f2t_out *out, struct f2t_minput *in, enum f2t_msect sect,
		      struct f2t_strset *seen, bool *first)
{
	struct f2t_jlex lx;
	bool first_in = true;
	int r;

	r = f2t_minput_open_at(in, &lx, &in->at[sect]);
	if (r)
		return r;
	r = f2t_jlex_expect(&lx, F2T_JT_LBRACE, "at the start of the object");
	if (r)
		return finish(&lx, r);
	while ((r = f2t_jobj_next(&lx, first_in, NULL, false)) == 1) {
		char renamed[F2T_JLEX_TEXT_MAX + 32];
		const char *name = lx.text;
		size_t len = lx.text_len;

		first_in = false;
		r = check_name(&lx);
		if (r < 0)
			break;
		r = f2t_strset_add(seen, name, len);
		if (r == 0) {
			/* Taken by an earlier input: keep both, under different names. */
			memcpy(renamed, name, len);
			len += (size_t)snprintf(renamed + len, sizeof(renamed) - len, "@%zu", in->num);
			name = renamed;
			r = f2t_strset_add(seen, name, len);
		}
		if (r < 0)
			break;
		f2t_out_puts(out, *first ? "\n" : ",\n");
		*first = false;
		f2t_json_put_string(out, name, len);
		f2t_out_putc(out, ':');
		r = f2t_jvalue_copy(&lx, out);
		if (r < 0)
			break;
	}
	return finish(&lx, r < 0 ? r : 0);
}

int f2t_mcopy_value(struct f2t_out *out, struct f2t_minput *in, const struct f2t_jpos *at)
{
	struct f2t_jlex lx;
	int r = f2t_minput_open_at(in, &lx, at);

	if (r)
		return r;
	return finish(&lx, f2t_jvalue_copy(&lx, out));
}
