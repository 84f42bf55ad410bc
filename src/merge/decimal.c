// SPDX-License-Identifier: MIT
/*
 * Numbers are held as sign, significant digits and a power of ten; sums are
 * done digit by digit at a common scale.  Timestamps have at most a few dozen
 * digits, so fixed arrays are plenty and a number that needs more is refused
 * rather than rounded.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "merge/decimal.h"

#define MAX_DIGITS 64		/* significant digits accepted */
#define WIDTH 200		/* digits in a scaled working value */

struct dec {
	bool neg;
	int n;			/* significant digits, most significant first */
	unsigned char d[MAX_DIGITS];
	int exp;		/* value = d * 10^exp */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* [+-]?D*(.D*)?([eE][+-]?D+)? with at least one mantissa digit. */
static int dec_parse(const char *s, size_t len, struct dec *v)
{
	size_t i = 0;
	int mant_digits = 0, frac = 0, exp = 0;
	bool exp_neg = false;

	*v = (struct dec){ 0 };
	if (i < len && (s[i] == '-' || s[i] == '+'))
		v->neg = s[i++] == '-';
	for (int part = 0; part < 2; part++) {
		for (; i < len && is_digit(s[i]); i++) {
			mant_digits++;
			if (part)
				frac++;
			if (!v->n && s[i] == '0')
				continue;	/* leading zero: no significance */
			if (v->n == MAX_DIGITS)
				return -ERANGE;
			v->d[v->n++] = (unsigned char)(s[i] - '0');
		}
		if (part == 0 && i < len && s[i] == '.')
			i++;
		else
			break;
	}
	if (!mant_digits)
		return -EINVAL;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		int exp_digits = 0;

		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			exp_neg = s[i++] == '-';
		for (; i < len && is_digit(s[i]); i++, exp_digits++)
			if (exp < 100000)
				exp = exp * 10 + (s[i] - '0');
		if (!exp_digits)
			return -EINVAL;
	}
	if (i != len)
		return -EINVAL;
	/* Digits after the first significant one that were fraction digits. */
	v->exp = (exp_neg ? -exp : exp) - frac;
	/* Trailing zeros carry no information: fold them into the exponent. */
	while (v->n && v->d[v->n - 1] == 0) {
		v->n--;
		v->exp++;
	}
	if (!v->n) {
		v->neg = false;
		v->exp = 0;
	}
	return 0;
}

/*
 * V scaled to 10^SCALE as WIDTH little-endian digits (w[0] units of
 * 10^SCALE).  -ERANGE if it needs more room or loses digits.
 */
static int to_scaled(const struct dec *v, int scale, unsigned char *w)
{
	int shift = v->exp - scale;

	memset(w, 0, WIDTH);
	/* The scale also bounds the fraction digits printed from the result. */
	if (scale < -(WIDTH - 1))
		return -ERANGE;
	if (!v->n)
		return 0;
	/* The top digit stays free for a sum's carry. */
	if (shift < 0 || shift + v->n > WIDTH - 1)
		return -ERANGE;
	for (int i = 0; i < v->n; i++)
		w[shift + v->n - 1 - i] = v->d[i];
	return 0;
}

static int cmp_mag(const unsigned char *a, const unsigned char *b)
{
	for (int i = WIDTH - 1; i >= 0; i--)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* r = a + b (magnitudes) */
static void add_mag(const unsigned char *a, const unsigned char *b, unsigned char *r)
{
	int carry = 0;

	for (int i = 0; i < WIDTH; i++) {
		int s = a[i] + b[i] + carry;

		r[i] = (unsigned char)(s % 10);
		carry = s / 10;
	}
}

/* r = a - b, a >= b */
static void sub_mag(const unsigned char *a, const unsigned char *b, unsigned char *r)
{
	int borrow = 0;

	for (int i = 0; i < WIDTH; i++) {
		int s = a[i] - b[i] - borrow;

		borrow = s < 0;
		r[i] = (unsigned char)(s + (borrow ? 10 : 0));
	}
}

/* An int64 as a decimal. */
static void dec_from_i64(int64_t x, int exp, struct dec *v)
{
	/* Negate in unsigned arithmetic: INT64_MIN has no positive twin. */
	uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
	unsigned char rev[20];
	int n = 0;

	*v = (struct dec){ .neg = x < 0, .exp = exp };
	while (u) {
		rev[n++] = (unsigned char)(u % 10);
		u /= 10;
	}
	while (n)
		v->d[v->n++] = rev[--n];
	while (v->n && v->d[v->n - 1] == 0) {
		v->n--;
		v->exp++;
	}
}

int f2t_dec_shift_us(const char *num, size_t len, int64_t offset_ns, char *out)
{
	unsigned char a[WIDTH], b[WIDTH], r[WIDTH];
	struct dec v, off;
	int scale, err, top, o = 0;
	bool neg;

	err = dec_parse(num, len, &v);
	if (err)
		return err;
	dec_from_i64(offset_ns, -3, &off);	/* ns are 10^-3 us */
	scale = v.n && v.exp < -3 ? v.exp : -3;
	if ((err = to_scaled(&v, scale, a)) || (err = to_scaled(&off, scale, b)))
		return err;
	if (v.neg == off.neg || !off.n) {
		add_mag(a, b, r);
		neg = v.neg;
	} else if (cmp_mag(a, b) >= 0) {
		sub_mag(a, b, r);
		neg = v.neg;
	} else {
		sub_mag(b, a, r);
		neg = off.neg;
	}
	for (top = WIDTH - 1; top > 0 && !r[top]; top--)
		;
	if (neg && (top || r[0]))
		out[o++] = '-';
	/* Integer digits: positions -scale and up; at least "0". */
	if (top < -scale)
		out[o++] = '0';
	for (int i = top; i >= -scale; i--)
		out[o++] = (char)('0' + r[i]);
	/* Fraction digits without the trailing zeros. */
	{
		int low = 0;

		while (low < -scale && !r[low])
			low++;
		if (low < -scale) {
			out[o++] = '.';
			for (int i = -scale - 1; i >= low; i--)
				out[o++] = (char)('0' + r[i]);
		}
	}
	out[o] = '\0';
	return o;
}

/* V * 10^SHIFT rounded to the nearest integer (halves away from zero). */
static int dec_to_i64(const struct dec *v, int shift, int64_t *out)
{
	int int_digits = v->n + v->exp + shift;	/* digits left of the point */
	uint64_t mag = 0, limit = v->neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

	if (!v->n) {
		*out = 0;
		return 0;
	}
	if (int_digits > 19)
		return -ERANGE;
	for (int i = 0; i < int_digits; i++) {
		unsigned d = i < v->n ? v->d[i] : 0;

		if (mag > (limit - d) / 10)
			return -ERANGE;
		mag = mag * 10 + d;
	}
	/* The first dropped digit decides the rounding. */
	if (int_digits >= 0 && int_digits < v->n && v->d[int_digits] >= 5) {
		if (mag == limit)
			return -ERANGE;
		mag++;
	}
	*out = v->neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

int f2t_dec_us_to_ns(const char *num, size_t len, int64_t *ns)
{
	struct dec v;
	int err = dec_parse(num, len, &v);

	return err ? err : dec_to_i64(&v, 3, ns);
}

int f2t_dec_sec_to_ns(const char *s, int64_t *ns)
{
	struct dec v;
	int err = dec_parse(s, strlen(s), &v);

	return err ? err : dec_to_i64(&v, 9, ns);
}
