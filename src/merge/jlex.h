/* SPDX-License-Identifier: MIT */
/*
 * A streaming JSON tokenizer over a file descriptor, for inputs far larger
 * than memory.  It reads through a fixed buffer, so memory does not depend
 * on the input: strings are decoded only up to F2T_JLEX_TEXT_MAX bytes (the
 * rest is still checked, and the token marked truncated), which is all the
 * merge ever needs to look at (keys, ids, "ph" values, numbers).  Large
 * values are passed through untouched with the tee: every input byte
 * consumed while a tee is set is copied to an output, so a value can be
 * copied verbatim, numbers exactly as written, without being decoded.
 *
 * Positions (byte offset, line, column) are kept for error messages and so
 * a second pass can seek straight back to a value.  Errors are sticky: the
 * first one's message and position stay in the lexer.
 */
#ifndef F2T_JLEX_H
#define F2T_JLEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/out.h"

/* Decoded string bytes / number characters kept per token. */
#define F2T_JLEX_TEXT_MAX 4096
/* What f2t_jlex_peek() returns at the end of the input. */
#define F2T_JLEX_EOF 256

enum f2t_jtok {
	F2T_JT_EOF = 0,
	F2T_JT_LBRACE,		/* { */
	F2T_JT_RBRACE,		/* } */
	F2T_JT_LBRACK,		/* [ */
	F2T_JT_RBRACK,		/* ] */
	F2T_JT_COLON,
	F2T_JT_COMMA,
	F2T_JT_STRING,		/* text: the decoded string */
	F2T_JT_NUMBER,		/* text: the number as written */
	F2T_JT_TRUE,
	F2T_JT_FALSE,
	F2T_JT_NULL,
};

/* A place in the input; line and col count from 1, col in bytes. */
struct f2t_jpos {
	uint64_t off;
	uint64_t line;
	uint64_t col;
};

struct f2t_jlex {
	int fd;
	bool own_fd;
	char *name;			/* for messages */
	unsigned char *buf;
	size_t cap, len, pos;
	uint64_t buf_off;		/* input offset of buf[0] */
	bool eof;
	uint64_t line;
	uint64_t line_start;		/* input offset where the current line starts */
	struct f2t_out *tee;		/* copy of consumed bytes, or NULL */
	size_t tee_from;		/* buf index not yet copied to tee */

	/* The last token. */
	enum f2t_jtok tok;
	struct f2t_jpos tok_pos;
	/*
	 * The last string (decoded) or number (as written), NUL-terminated.
	 * Punctuation tokens leave it alone: after "key" and its ':', it
	 * still holds the key.
	 */
	char *text;
	size_t text_len;
	bool text_trunc;		/* the string went on past F2T_JLEX_TEXT_MAX */
	uint32_t high_surrogate;	/* \uD8xx waiting for its low half */

	/* The first error. */
	int err;
	char msg[200];
	struct f2t_jpos err_pos;
};

/**
 * f2t_jlex_open() - start reading a file
 * @lx: the lexer (any contents)
 * @path: the file
 *
 * Return: 0, or a negative errno (@lx then needs no f2t_jlex_fini()).
 */
int f2t_jlex_open(struct f2t_jlex *lx, const char *path);

/**
 * f2t_jlex_init_fd() - start reading an open descriptor, from its current offset
 * @lx: the lexer
 * @fd: stays open after f2t_jlex_fini()
 * @name: for messages
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_jlex_init_fd(struct f2t_jlex *lx, int fd, const char *name);

void f2t_jlex_fini(struct f2t_jlex *lx);

/**
 * f2t_jlex_next() - read the next token
 * @lx: the lexer
 *
 * Skips white space, reads one token into lx->tok (and lx->text for strings
 * and numbers), with its start in lx->tok_pos.
 *
 * Return: the token (>= 0), or a negative errno: -EINVAL for bad JSON, with
 * the reason in lx->msg at lx->err_pos; -EIO etc. for read errors.
 */
int f2t_jlex_next(struct f2t_jlex *lx);

/**
 * f2t_jlex_peek() - the first byte of the next token, not consumed
 * @lx: the lexer
 *
 * Skips white space first, so f2t_jlex_where() and f2t_jlex_tee_start()
 * after it are at the token's first byte.
 *
 * Return: the byte, F2T_JLEX_EOF, or a negative errno.
 */
int f2t_jlex_peek(struct f2t_jlex *lx);

/* Where the next unconsumed byte is. */
void f2t_jlex_where(const struct f2t_jlex *lx, struct f2t_jpos *pos);

/**
 * f2t_jlex_seek() - continue reading at a position f2t_jlex_where() gave
 * @lx: the lexer; its tee must be stopped
 * @pos: where
 *
 * Return: 0 or a negative errno.
 */
int f2t_jlex_seek(struct f2t_jlex *lx, const struct f2t_jpos *pos);

/* Copies every byte consumed from now on to @out, until f2t_jlex_tee_stop(). */
void f2t_jlex_tee_start(struct f2t_jlex *lx, struct f2t_out *out);
void f2t_jlex_tee_stop(struct f2t_jlex *lx);

/**
 * f2t_jlex_fail() - record a grammar error found by the caller
 * @lx: the lexer
 * @at: where (usually &lx->tok_pos)
 * @fmt: the reason, printf style
 *
 * Only the first error is kept.
 *
 * Return: -EINVAL, to pass up.
 */
int f2t_jlex_fail(struct f2t_jlex *lx, const struct f2t_jpos *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * f2t_jlex_report() - print the error as "FILE: line L col C: reason"
 * @lx: the lexer
 * @err: what the failing call returned; used when @lx holds no message
 */
void f2t_jlex_report(const struct f2t_jlex *lx, int err);

/* "'{'", "a string", "end of file", ... for messages. */
const char *f2t_jtok_name(enum f2t_jtok tok);

/* True if lx->text is @s, complete (not truncated). */
bool f2t_jlex_text_is(const struct f2t_jlex *lx, const char *s);
/* True if the last token is the string @s. */
bool f2t_jlex_is(const struct f2t_jlex *lx, const char *s);

#endif
