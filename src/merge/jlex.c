// SPDX-License-Identifier: MIT
/*
 * The streaming JSON tokenizer.  Every byte goes through peek_byte() /
 * advance(), except runs of plain string characters, which are scanned and
 * copied a buffer at a time because strings (systemTraceEvents above all)
 * are where the bytes are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge/jlex.h"
#include "util/log.h"
#include "util/path.h"

/*
 * The read buffer starts small and doubles each time a read fills it, up to
 * BUF_MAX: a large input gets large reads, a small one (most of those a
 * merge tokenizes, and every fuzzed one) no 256 KB block it never fills.
 */
#define BUF_FIRST (16u << 10)
#define BUF_MAX (256u << 10)

static int lex_setup(struct f2t_jlex *lx, int fd, bool own, const char *name)
{
	*lx = (struct f2t_jlex){ .fd = fd, .own_fd = own, .line = 1 };
	lx->buf = malloc(BUF_FIRST);
	lx->text = malloc(F2T_JLEX_TEXT_MAX + 1);
	lx->name = strdup(name);
	if (!lx->buf || !lx->text || !lx->name) {
		free(lx->buf);
		free(lx->text);
		free(lx->name);
		return -ENOMEM;
	}
	lx->cap = BUF_FIRST;
	lx->text[0] = '\0';
	return 0;
}

int f2t_jlex_open(struct f2t_jlex *lx, const char *path)
{
	/* Not waiting on a FIFO for a writer: merge refuses all but regular files (scan.c). */
	int fd = f2t_path_open(path, O_RDONLY | O_NONBLOCK);
	int err;

	if (fd < 0)
		return fd;
	err = lex_setup(lx, fd, true, path);
	if (err)
		close(fd);
	return err;
}

int f2t_jlex_init_fd(struct f2t_jlex *lx, int fd, const char *name)
{
	off_t off = lseek(fd, 0, SEEK_CUR);
	int err = lex_setup(lx, fd, false, name);

	if (!err && off > 0) {
		lx->buf_off = (uint64_t)off;
		lx->line_start = (uint64_t)off;
	}
	return err;
}

void f2t_jlex_fini(struct f2t_jlex *lx)
{
	f2t_jlex_tee_stop(lx);
	if (lx->own_fd && lx->fd >= 0)
		close(lx->fd);
	free(lx->buf);
	free(lx->text);
	free(lx->name);
	lx->buf = NULL;
	lx->text = NULL;
	lx->name = NULL;
	lx->fd = -1;
}

void f2t_jlex_where(const struct f2t_jlex *lx, struct f2t_jpos *pos)
{
	pos->off = lx->buf_off + lx->pos;
	pos->line = lx->line;
	pos->col = pos->off - lx->line_start + 1;
}

int f2t_jlex_fail(struct f2t_jlex *lx, const struct f2t_jpos *at, const char *fmt, ...)
{
	va_list ap;

	if (lx->err)
		return -EINVAL;
	lx->err = -EINVAL;
	lx->err_pos = *at;
	va_start(ap, fmt);
	vsnprintf(lx->msg, sizeof(lx->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* An error at the next unconsumed byte. */
static int fail_here(struct f2t_jlex *lx, const char *what)
{
	struct f2t_jpos here;

	f2t_jlex_where(lx, &here);
	return f2t_jlex_fail(lx, &here, "%s", what);
}

void f2t_jlex_report(const struct f2t_jlex *lx, int err)
{
	if (lx->msg[0])
		f2t_err("%s: line %llu col %llu: %s", lx->name,
			(unsigned long long)lx->err_pos.line,
			(unsigned long long)lx->err_pos.col, lx->msg);
	else
		f2t_err("%s: %s", lx->name, strerror(err < 0 ? -err : EIO));
}

static void tee_flush(struct f2t_jlex *lx)
{
	if (lx->tee && lx->pos > lx->tee_from)
		f2t_out_write(lx->tee, lx->buf + lx->tee_from, lx->pos - lx->tee_from);
	lx->tee_from = lx->pos;
}

void f2t_jlex_tee_start(struct f2t_jlex *lx, struct f2t_out *out)
{
	f2t_jlex_tee_stop(lx);
	lx->tee = out;
	lx->tee_from = lx->pos;
}

void f2t_jlex_tee_stop(struct f2t_jlex *lx)
{
	tee_flush(lx);
	lx->tee = NULL;
}

/* Refills an exhausted buffer: 1 if there is more, 0 at EOF, negative errno. */
static int fill(struct f2t_jlex *lx)
{
	ssize_t n;

	if (lx->eof)
		return 0;
	tee_flush(lx);
	lx->buf_off += lx->len;
	if (lx->len == lx->cap && lx->cap < BUF_MAX) {
		/* Nothing in it is kept across a fill: a new block, not a copy. */
		unsigned char *more = malloc(2 * lx->cap);

		if (more) {
			free(lx->buf);
			lx->buf = more;
			lx->cap *= 2;
		}
	}
	lx->len = lx->pos = lx->tee_from = 0;
	do
		n = read(lx->fd, lx->buf, lx->cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		lx->err = -errno;
		return lx->err;
	}
	if (n == 0) {
		lx->eof = true;
		return 0;
	}
	lx->len = (size_t)n;
	return 1;
}

/* The next byte, not consumed: 0..255, F2T_JLEX_EOF, or a negative errno. */
static inline int peek_byte(struct f2t_jlex *lx)
{
	if (lx->pos == lx->len) {
		int r = fill(lx);

		if (r <= 0)
			return r < 0 ? r : F2T_JLEX_EOF;
	}
	return lx->buf[lx->pos];
}

int f2t_jlex_seek(struct f2t_jlex *lx, const struct f2t_jpos *pos)
{
	if (lseek(lx->fd, (off_t)pos->off, SEEK_SET) < 0)
		return -errno;
	lx->tee = NULL;
	lx->buf_off = pos->off;
	lx->len = lx->pos = lx->tee_from = 0;
	lx->eof = false;
	lx->line = pos->line;
	lx->line_start = pos->off - (pos->col - 1);
	return 0;
}

static int skip_space(struct f2t_jlex *lx)
{
	for (;;) {
		int c = peek_byte(lx);

		switch (c) {
		case '\n':
			lx->pos++;
			lx->line++;
			lx->line_start = lx->buf_off + lx->pos;
			break;
		case ' ':
		case '\t':
		case '\r':
			lx->pos++;
			break;
		default:
			return c;
		}
	}
}

int f2t_jlex_peek(struct f2t_jlex *lx)
{
	return skip_space(lx);
}

/* Adds decoded bytes to the token text, up to F2T_JLEX_TEXT_MAX. */
static void text_add(struct f2t_jlex *lx, const void *p, size_t n)
{
	size_t room = F2T_JLEX_TEXT_MAX - lx->text_len;

	if (n > room) {
		n = room;
		lx->text_trunc = true;
	}
	memcpy(lx->text + lx->text_len, p, n);
	lx->text_len += n;
}

static void text_add_utf8(struct f2t_jlex *lx, uint32_t cp)
{
	unsigned char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xC0 | (cp >> 6));
		u[1] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xE0 | (cp >> 12));
		u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xF0 | (cp >> 18));
		u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	text_add(lx, u, n);
}

/* A high surrogate not followed by its low half stands for U+FFFD. */
static void flush_surrogate(struct f2t_jlex *lx)
{
	if (lx->high_surrogate) {
		text_add_utf8(lx, 0xFFFD);
		lx->high_surrogate = 0;
	}
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* After "\u": four hex digits, decoded (surrogate pairs joined). */
static int read_unicode_escape(struct f2t_jlex *lx)
{
	uint32_t cp = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek_byte(lx), h;

		if (c < 0)
			return c;
		h = c == F2T_JLEX_EOF ? -1 : hex_value(c);
		if (h < 0)
			return fail_here(lx, "\\u is not followed by four hex digits");
		cp = cp << 4 | (uint32_t)h;
		lx->pos++;
	}
	if (cp >= 0xDC00 && cp <= 0xDFFF && lx->high_surrogate) {
		cp = 0x10000 + ((lx->high_surrogate - 0xD800) << 10) + (cp - 0xDC00);
		lx->high_surrogate = 0;
		text_add_utf8(lx, cp);
		return 0;
	}
	flush_surrogate(lx);
	if (cp >= 0xD800 && cp <= 0xDBFF)
		lx->high_surrogate = cp;
	else if (cp >= 0xDC00 && cp <= 0xDFFF)
		text_add_utf8(lx, 0xFFFD);	/* a lone low half */
	else
		text_add_utf8(lx, cp);
	return 0;
}

/* After a backslash. */
static int read_escape(struct f2t_jlex *lx)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek_byte(lx);
	const char *p;

	if (c < 0)
		return c;
	if (c == F2T_JLEX_EOF)
		return fail_here(lx, "unterminated string");
	lx->pos++;
	if (c == 'u')
		return read_unicode_escape(lx);
	flush_surrogate(lx);
	p = c ? strchr(from, c) : NULL;
	if (!p) {
		lx->pos--;
		return fail_here(lx, "invalid escape in a string");
	}
	text_add(lx, &to[p - from], 1);
	return 0;
}

/* After the opening quote. */
static int read_string(struct f2t_jlex *lx)
{
	for (;;) {
		const unsigned char *p, *q, *end;
		int c = peek_byte(lx);

		if (c < 0)
			return c;
		if (c == F2T_JLEX_EOF)
			return f2t_jlex_fail(lx, &lx->tok_pos, "unterminated string");
		p = q = lx->buf + lx->pos;
		end = lx->buf + lx->len;
		while (q < end && *q != '"' && *q != '\\' && *q >= 0x20)
			q++;
		if (q > p) {
			flush_surrogate(lx);
			text_add(lx, p, (size_t)(q - p));
			lx->pos += (size_t)(q - p);
			continue;
		}
		if (*q == '"') {
			lx->pos++;
			flush_surrogate(lx);
			return 0;
		}
		if (*q < 0x20)
			return fail_here(lx, "control character in a string (must be escaped)");
		lx->pos++;
		c = read_escape(lx);
		if (c < 0)
			return c;
	}
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Appends the digits at the cursor; returns how many, or a negative errno. */
static int read_digits(struct f2t_jlex *lx)
{
	int n = 0;

	for (;;) {
		int c = peek_byte(lx);

		if (c < 0)
			return c;
		if (!is_digit(c))
			return n;
		if (lx->text_len == F2T_JLEX_TEXT_MAX)
			return fail_here(lx, "number too long");
		lx->text[lx->text_len++] = (char)c;
		lx->pos++;
		n++;
	}
}

/* Appends C and consumes it if the next byte is C. */
static int accept(struct f2t_jlex *lx, int c)
{
	int got = peek_byte(lx);

	if (got < 0)
		return got;
	if (got != c)
		return 0;
	if (lx->text_len == F2T_JLEX_TEXT_MAX)
		return fail_here(lx, "number too long");
	lx->text[lx->text_len++] = (char)c;
	lx->pos++;
	return 1;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, as written. */
static int read_number(struct f2t_jlex *lx)
{
	int r, c;

	if ((r = accept(lx, '-')) < 0)
		return r;
	if ((r = accept(lx, '0')) < 0)
		return r;
	if (!r) {
		r = read_digits(lx);
		if (r <= 0)
			return r < 0 ? r : fail_here(lx, "invalid number");
	}
	if ((r = accept(lx, '.')) < 0)
		return r;
	if (r) {
		r = read_digits(lx);
		if (r <= 0)
			return r < 0 ? r : fail_here(lx, "invalid number: no digit after '.'");
	}
	if ((r = accept(lx, 'e')) == 0)
		r = accept(lx, 'E');
	if (r < 0)
		return r;
	if (r) {
		if ((r = accept(lx, '+')) == 0)
			r = accept(lx, '-');
		if (r < 0)
			return r;
		r = read_digits(lx);
		if (r <= 0)
			return r < 0 ? r : fail_here(lx, "invalid number: no digit in the exponent");
	}
	/* "01", "1x", "1.2.3": a number runs into something it cannot hold. */
	c = peek_byte(lx);
	if (c < 0)
		return c;
	if (c != F2T_JLEX_EOF && (is_digit(c) || c == '.' || c == '-' || c == '+' ||
				  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		return fail_here(lx, "invalid number");
	return 0;
}

/* The rest of true / false / null, whose first letter is consumed. */
static int read_word(struct f2t_jlex *lx, const char *rest)
{
	int c;

	for (; *rest; rest++) {
		c = peek_byte(lx);
		if (c < 0)
			return c;
		if (c != *rest)
			return f2t_jlex_fail(lx, &lx->tok_pos, "invalid literal (true, false or null?)");
		lx->pos++;
	}
	c = peek_byte(lx);
	if (c < 0)
		return c;
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c))
		return f2t_jlex_fail(lx, &lx->tok_pos, "invalid literal (true, false or null?)");
	return 0;
}

int f2t_jlex_next(struct f2t_jlex *lx)
{
	int c, r = 0;

	if (lx->err)
		return lx->err;
	c = skip_space(lx);
	if (c < 0)
		return c;
	f2t_jlex_where(lx, &lx->tok_pos);
	if (c == F2T_JLEX_EOF) {
		lx->tok = F2T_JT_EOF;
		return (int)lx->tok;
	}
	/* Punctuation leaves the text alone, so a member name outlives its ':'. */
	if (c == '"' || c == '-' || is_digit(c)) {
		lx->text_len = 0;
		lx->text_trunc = false;
		lx->high_surrogate = 0;
	}
	lx->pos++;
	switch (c) {
	case '{':
		lx->tok = F2T_JT_LBRACE;
		break;
	case '}':
		lx->tok = F2T_JT_RBRACE;
		break;
	case '[':
		lx->tok = F2T_JT_LBRACK;
		break;
	case ']':
		lx->tok = F2T_JT_RBRACK;
		break;
	case ':':
		lx->tok = F2T_JT_COLON;
		break;
	case ',':
		lx->tok = F2T_JT_COMMA;
		break;
	case '"':
		lx->tok = F2T_JT_STRING;
		r = read_string(lx);
		break;
	case 't':
		lx->tok = F2T_JT_TRUE;
		r = read_word(lx, "rue");
		break;
	case 'f':
		lx->tok = F2T_JT_FALSE;
		r = read_word(lx, "alse");
		break;
	case 'n':
		lx->tok = F2T_JT_NULL;
		r = read_word(lx, "ull");
		break;
	default:
		if (c == '-' || is_digit(c)) {
			lx->pos--;
			lx->tok = F2T_JT_NUMBER;
			r = read_number(lx);
			break;
		}
		lx->pos--;
		if (c >= 0x20 && c < 0x7F)
			r = fail_here(lx, "unexpected character");
		else
			r = f2t_jlex_fail(lx, &lx->tok_pos, "unexpected byte 0x%02x", c);
		break;
	}
	lx->text[lx->text_len] = '\0';
	if (r < 0) {
		if (!lx->err)
			lx->err = r;
		return r;
	}
	return (int)lx->tok;
}

const char *f2t_jtok_name(enum f2t_jtok tok)
{
	static const char *const names[] = {
		[F2T_JT_EOF] = "end of file",
		[F2T_JT_LBRACE] = "'{'",
		[F2T_JT_RBRACE] = "'}'",
		[F2T_JT_LBRACK] = "'['",
		[F2T_JT_RBRACK] = "']'",
		[F2T_JT_COLON] = "':'",
		[F2T_JT_COMMA] = "','",
		[F2T_JT_STRING] = "a string",
		[F2T_JT_NUMBER] = "a number",
		[F2T_JT_TRUE] = "true",
		[F2T_JT_FALSE] = "false",
		[F2T_JT_NULL] = "null",
	};

	return (unsigned)tok < sizeof(names) / sizeof(names[0]) ? names[tok] : "?";
}

bool f2t_jlex_text_is(const struct f2t_jlex *lx, const char *s)
{
	return !lx->text_trunc && lx->text_len == strlen(s) && !memcmp(lx->text, s, lx->text_len);
}

bool f2t_jlex_is(const struct f2t_jlex *lx, const char *s)
{
	return lx->tok == F2T_JT_STRING && f2t_jlex_text_is(lx, s);
}
