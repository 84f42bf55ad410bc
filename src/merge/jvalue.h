/* SPDX-License-Identifier: MIT */
/*
 * Whole JSON values on top of the tokenizer: skip one (checking its
 * grammar) or copy it verbatim.  Nesting is tracked in a bit stack, not by
 * recursion, so a hostile input cannot exhaust the C stack.
 */
#ifndef F2T_JVALUE_H
#define F2T_JVALUE_H

#include "merge/jlex.h"
#include "util/out.h"

/* Deepest nesting accepted; real traces stay under ten. */
#define F2T_JVALUE_MAX_DEPTH 4096

/**
 * f2t_jvalue_skip_rest() - consume the rest of a value
 * @lx: the lexer; its last token is the value's first
 *
 * Return: 0, or a negative errno (bad JSON: -EINVAL with lx->msg set).
 */
int f2t_jvalue_skip_rest(struct f2t_jlex *lx);

/**
 * f2t_jvalue_skip() - read and consume one whole value
 * @lx: the lexer, before the value
 *
 * Return: 0 or a negative errno.
 */
int f2t_jvalue_skip(struct f2t_jlex *lx);

/**
 * f2t_jvalue_copy() - copy one whole value to @out, byte for byte
 * @lx: the lexer, before the value
 * @out: where the value's text goes (white space inside it included)
 *
 * Return: 0 or a negative errno.
 */
int f2t_jvalue_copy(struct f2t_jlex *lx, struct f2t_out *out);

/**
 * f2t_jlex_expect() - read a token that must be @want
 * @lx: the lexer
 * @want: the token
 * @where: what is being read, for the message ("after a member name")
 *
 * Return: 0, or a negative errno (-EINVAL: "expected X WHERE, found Y").
 */
int f2t_jlex_expect(struct f2t_jlex *lx, enum f2t_jtok want, const char *where);

/**
 * f2t_jobj_next() - move to the next member of an object
 * @lx: right after the object's '{' (@first) or after a member's value
 * @first: true for the first call on this object
 * @raw: if not NULL, the member name and its ':' are copied there as
 *	written, preceded by a ',' when @comma
 * @comma: see @raw
 *
 * On 1, the member's name is in lx->text (until the next string or number
 * token) and the lexer stands before its value, which the caller must
 * consume.
 *
 * Return: 1 for a member, 0 at the object's '}', or a negative errno.
 */
int f2t_jobj_next(struct f2t_jlex *lx, bool first, struct f2t_out *raw, bool comma);

/**
 * f2t_jarr_next() - move to the next element of an array
 * @lx: right after the array's '[' (@first) or after an element
 * @first: true for the first call on this array
 * @eof_ends: accept the end of the input (after '[', an element, or a
 *	trailing ',') as the end of the array: the bare-array trace form may
 *	be cut off there, and the format allows it
 *
 * Return: 1 if an element follows (the lexer stands before it), 0 at ']',
 * 2 at an end of input accepted by @eof_ends, or a negative errno.
 */
int f2t_jarr_next(struct f2t_jlex *lx, bool first, bool eof_ends);

#endif
