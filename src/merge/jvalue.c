// SPDX-License-Identifier: MIT
/* Skipping and copying whole values: the JSON grammar as a small state machine. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "merge/jvalue.h"

int f2t_jlex_expect(struct f2t_jlex *lx, enum f2t_jtok want, const char *where)
{
	int tok = f2t_jlex_next(lx);

	if (tok < 0)
		return tok;
	if (tok != (int)want)
		return f2t_jlex_fail(lx, &lx->tok_pos, "expected %s %s, found %s",
				     f2t_jtok_name(want), where, f2t_jtok_name((enum f2t_jtok)tok));
	return 0;
}

struct stack {
	uint8_t bits[F2T_JVALUE_MAX_DEPTH / 8];	/* 1: object, 0: array */
	unsigned depth;
};

static bool top_is_object(const struct stack *s)
{
	unsigned i = s->depth - 1;

	return s->bits[i / 8] >> (i % 8) & 1;
}

static int push(struct f2t_jlex *lx, struct stack *s, bool object)
{
	unsigned i = s->depth;

	if (i == F2T_JVALUE_MAX_DEPTH)
		return f2t_jlex_fail(lx, &lx->tok_pos, "nested deeper than %d levels",
				     F2T_JVALUE_MAX_DEPTH);
	if (object)
		s->bits[i / 8] |= (uint8_t)(1u << (i % 8));
	else
		s->bits[i / 8] &= (uint8_t)~(1u << (i % 8));
	s->depth++;
	return 0;
}

/* In an object, after '{' or ',': a member name and its ':'. */
static int member_name(struct f2t_jlex *lx)
{
	if (lx->tok != F2T_JT_STRING)
		return f2t_jlex_fail(lx, &lx->tok_pos, "expected a member name (a string), found %s",
				     f2t_jtok_name(lx->tok));
	return f2t_jlex_expect(lx, F2T_JT_COLON, "after a member name");
}

int f2t_jvalue_skip_rest(struct f2t_jlex *lx)
{
	struct stack s;
	int tok = (int)lx->tok, err;

	s.depth = 0;
	for (;;) {
		/* Here tok starts a value. */
		switch (tok) {
		case F2T_JT_LBRACE:
		case F2T_JT_LBRACK:
			err = push(lx, &s, tok == F2T_JT_LBRACE);
			if (err)
				return err;
			tok = f2t_jlex_next(lx);
			if (tok < 0)
				return tok;
			if (tok == (top_is_object(&s) ? F2T_JT_RBRACE : F2T_JT_RBRACK)) {
				s.depth--;
				break;		/* empty container: a complete value */
			}
			if (top_is_object(&s)) {
				err = member_name(lx);
				if (err)
					return err;
				tok = f2t_jlex_next(lx);
				if (tok < 0)
					return tok;
			}
			continue;
		case F2T_JT_STRING:
		case F2T_JT_NUMBER:
		case F2T_JT_TRUE:
		case F2T_JT_FALSE:
		case F2T_JT_NULL:
			break;
		default:
			return f2t_jlex_fail(lx, &lx->tok_pos, "expected a value, found %s",
					     f2t_jtok_name((enum f2t_jtok)tok));
		}
		/* A value is complete: close containers or move to the next element. */
		for (;;) {
			enum f2t_jtok close;

			if (!s.depth)
				return 0;
			close = top_is_object(&s) ? F2T_JT_RBRACE : F2T_JT_RBRACK;
			tok = f2t_jlex_next(lx);
			if (tok < 0)
				return tok;
			if (tok == (int)close) {
				s.depth--;
				continue;
			}
			if (tok != F2T_JT_COMMA)
				return f2t_jlex_fail(lx, &lx->tok_pos, "expected ',' or %s, found %s",
						     f2t_jtok_name(close),
						     f2t_jtok_name((enum f2t_jtok)tok));
			tok = f2t_jlex_next(lx);
			if (tok < 0)
				return tok;
			if (close == F2T_JT_RBRACE) {
				err = member_name(lx);
				if (err)
					return err;
				tok = f2t_jlex_next(lx);
				if (tok < 0)
					return tok;
			}
			break;
		}
	}
}

int f2t_jvalue_skip(struct f2t_jlex *lx)
{
	int tok = f2t_jlex_next(lx);

	if (tok < 0)
		return tok;
	return f2t_jvalue_skip_rest(lx);
}

int f2t_jvalue_copy(struct f2t_jlex *lx, struct f2t_out *out)
{
	int c = f2t_jlex_peek(lx), err;

	if (c < 0)
		return c;
	/* The peek skipped the white space: the tee starts at the value. */
	f2t_jlex_tee_start(lx, out);
	err = f2t_jvalue_skip(lx);
	f2t_jlex_tee_stop(lx);
	return err;
}

int f2t_jobj_next(struct f2t_jlex *lx, bool first, struct f2t_out *raw, bool comma)
{
	int tok, c, err;

	if (!first) {
		tok = f2t_jlex_next(lx);
		if (tok < 0)
			return tok;
		if (tok == F2T_JT_RBRACE)
			return 0;
		if (tok != F2T_JT_COMMA)
			return f2t_jlex_fail(lx, &lx->tok_pos, "expected ',' or '}', found %s",
					     f2t_jtok_name((enum f2t_jtok)tok));
	}
	c = f2t_jlex_peek(lx);
	if (c < 0)
		return c;
	if (first && c == '}') {
		f2t_jlex_next(lx);
		return 0;
	}
	if (raw) {
		if (comma)
			f2t_out_putc(raw, ',');
		f2t_jlex_tee_start(lx, raw);
	}
	tok = f2t_jlex_next(lx);
	if (tok >= 0 && tok != F2T_JT_STRING)
		tok = f2t_jlex_fail(lx, &lx->tok_pos, "expected a member name (a string), found %s",
				    f2t_jtok_name((enum f2t_jtok)tok));
	err = tok < 0 ? tok : f2t_jlex_expect(lx, F2T_JT_COLON, "after a member name");
	if (raw)
		f2t_jlex_tee_stop(lx);
	return err ? err : 1;
}

int f2t_jarr_next(struct f2t_jlex *lx, bool first, bool eof_ends)
{
	int tok, c;

	if (!first) {
		tok = f2t_jlex_next(lx);
		if (tok < 0)
			return tok;
		if (tok == F2T_JT_RBRACK)
			return 0;
		if (tok == F2T_JT_EOF && eof_ends)
			return 2;
		if (tok != F2T_JT_COMMA)
			return f2t_jlex_fail(lx, &lx->tok_pos, "expected ',' or ']', found %s",
					     f2t_jtok_name((enum f2t_jtok)tok));
	}
	c = f2t_jlex_peek(lx);
	if (c < 0)
		return c;
	if (first && c == ']') {
		f2t_jlex_next(lx);
		return 0;
	}
	if (c == F2T_JLEX_EOF && eof_ends)
		return 2;
	return 1;
}
