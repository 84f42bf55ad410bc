// SPDX-License-Identifier: MIT
/* JSON numbers and string escaping; see json_fmt.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_fmt.h"
#include "model/identity.h"
#include "util/bytes.h"

size_t f2t_json_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(buf, tmp + i, sizeof(tmp) - i);
	return sizeof(tmp) - i;
}

size_t f2t_json_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return f2t_json_u64(buf, (uint64_t)v);
	buf[0] = '-';
	/* Negate in unsigned arithmetic so INT64_MIN does not overflow. */
	return 1 + f2t_json_u64(buf + 1, 0 - (uint64_t)v);
}

size_t f2t_json_ts(char *buf, uint64_t ns)
{
	size_t n = f2t_json_u64(buf, ns / 1000);
	unsigned int frac = (unsigned int)(ns % 1000);

	buf[n++] = '.';
	buf[n++] = (char)('0' + frac / 100);
	buf[n++] = (char)('0' + frac / 10 % 10);
	buf[n++] = (char)('0' + frac % 10);
	return n;
}

/*
 * 1 for the bytes that go out as they are: printable ASCII other than quote
 * and backslash.  Everything else takes the slow path below.
 */
static const unsigned char plain[256] = {
	[0x20] = 1, [0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7f] = 1,
};

/*
 * The length of the well-formed UTF-8 sequence at P (2..4), or 0 with *bad
 * set to the length of the maximal ill-formed subpart to replace with one
 * U+FFFD (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal
 * Subparts"; what Python's and browsers' decoders do too).
 */
static size_t utf8_len(const unsigned char *p, const unsigned char *end, size_t *bad)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t need, i;

	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		*bad = 1;	/* a stray continuation byte, C0, C1, F5..FF */
		return 0;
	}
	for (i = 1; i <= need; i++) {
		if (p + i >= end || p[i] < lo || p[i] > hi) {
			*bad = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

static void put_control(struct f2t_out *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"':  f2t_out_write(o, "\\\"", 2); return;
	case '\\': f2t_out_write(o, "\\\\", 2); return;
	case '\n': f2t_out_write(o, "\\n", 2); return;
	case '\t': f2t_out_write(o, "\\t", 2); return;
	case '\r': f2t_out_write(o, "\\r", 2); return;
	case '\b': f2t_out_write(o, "\\b", 2); return;
	case '\f': f2t_out_write(o, "\\f", 2); return;
	default:   f2t_out_write(o, esc, sizeof(esc)); return;
	}
}

/*
 * Nonzero when one of the 8 bytes in X is not plain: below 0x20, a quote, a
 * backslash, or 0x80 and above.  The text is mostly long plain runs, which
 * this skips 8 bytes at a time.
 */
static inline uint64_t any_special(uint64_t x)
{
	return f2t_byte_below(x, 0x20) | f2t_byte_is(x, '"') | f2t_byte_is(x, '\\') |
	       (x & (F2T_ONES * 0x80));
}

void f2t_json_put_escaped(struct f2t_out *o, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		const unsigned char *run = p;
		size_t n, bad;
		uint64_t x;

		/*
		 * 32 bytes a test, then 8: one branch for four words.  Where the
		 * four hold a special byte, the plain words before it are passed
		 * here, not tested again by the loop of 8.
		 */
		while (end - p >= 32) {
			uint64_t w[4], m0, m1, m2;

			memcpy(w, p, sizeof(w));
			m0 = any_special(w[0]);
			m1 = any_special(w[1]);
			m2 = any_special(w[2]);
			if (m0 | m1 | m2 | any_special(w[3])) {
				p += m0 ? 0 : m1 ? 8 : m2 ? 16 : 24;
				break;
			}
			p += 32;
		}
		while (end - p >= 8) {
			memcpy(&x, p, sizeof(x));
			if (any_special(x))
				break;
			p += 8;
		}
		while (p < end && plain[*p])
			p++;
		if (p > run)
			f2t_out_write(o, run, (size_t)(p - run));
		if (p == end)
			break;
		if (*p < 0x80) {
			put_control(o, *p++);
			continue;
		}
		n = utf8_len(p, end, &bad);
		if (n) {
			f2t_out_write(o, p, n);
			p += n;
		} else {
			f2t_out_write(o, "\xef\xbf\xbd", 3);	/* U+FFFD */
			p += bad;
		}
	}
}

void f2t_json_put_string(struct f2t_out *o, const char *s, size_t len)
{
	f2t_out_putc(o, '"');
	f2t_json_put_escaped(o, s, len);
	f2t_out_putc(o, '"');
}

void f2t_json_put_u64(struct f2t_out *o, uint64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_u64(buf, v));
}

void f2t_json_put_i64(struct f2t_out *o, int64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_i64(buf, v));
}

void f2t_json_put_ts(struct f2t_out *o, uint64_t ns)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_ts(buf, ns));
}

void f2t_json_put_double(struct f2t_out *o, double v)
{
	char buf[40];
	int n = 0;

	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	f2t_out_write(o, buf, (size_t)n);
}

void f2t_json_put_identity(struct f2t_out *o, const struct f2t_identity *id, bool first)
{
	for (size_t i = 0; i < id->n; i++) {
		const struct f2t_ident *f = &id->f[i];

		f2t_out_printf(o, "%s\"%s\":", first && !i ? "" : ",", f->key);
		if (f->str)
			f2t_json_put_string(o, f->str, strlen(f->str));
		else if (f->known)
			f2t_json_put_i64(o, f->num);
		else
			f2t_out_puts(o, "null");
	}
}
