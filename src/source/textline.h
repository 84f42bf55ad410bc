/* SPDX-License-Identifier: MIT */
/*
 * A line of ftrace text built by hand: the kernel's column widths without
 * printf, which dominated JSON conversion time.  The caller sizes the buffer
 * for the longest line it can build (every put checks nothing).
 */
#ifndef F2T_TEXTLINE_H
#define F2T_TEXTLINE_H

#include <stdint.h>
#include <string.h>

struct textline {
	char *buf;
	size_t len;
};

static inline void tl_putc(struct textline *l, char c)
{
	l->buf[l->len++] = c;
}

static inline void tl_mem(struct textline *l, const char *s, size_t n)
{
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static inline void tl_str(struct textline *l, const char *s)
{
	tl_mem(l, s, strlen(s));
}

static inline void tl_pad(struct textline *l, size_t used, size_t width)
{
	if (used < width) {
		memset(l->buf + l->len, ' ', width - used);
		l->len += width - used;
	}
}

/* Digits of V into the end of TMP[24], two at a time; returns where they start. */
static inline char *tl_digits(char tmp[24], uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = tmp + 24;

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + v % 100 * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + v * 2, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

/* %*s: right-aligned in WIDTH. */
static inline void tl_str_right(struct textline *l, const char *s, size_t width)
{
	size_t n = strlen(s);

	tl_pad(l, n, width);
	tl_mem(l, s, n);
}

/* %-*d / %*d / %0*u for WIDTH, as printf would. */
static inline void tl_int(struct textline *l, int64_t v, size_t width, int align)
{
	char tmp[24], *p = tl_digits(tmp, v < 0 ? (uint64_t)-(v + 1) + 1 : (uint64_t)v);
	size_t n;

	if (v < 0)
		*--p = '-';
	n = (size_t)(tmp + 24 - p);
	if (align > 0)
		tl_pad(l, n, width);
	else if (align == 0)
		while (n < width) {
			*--p = '0';
			n++;
		}
	tl_mem(l, p, n);
	if (align < 0)
		tl_pad(l, n, width);
}

#define TL_LEFT -1
#define TL_ZERO 0
#define TL_RIGHT 1

#endif
