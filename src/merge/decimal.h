/* SPDX-License-Identifier: MIT */
/*
 * Exact decimal arithmetic on numbers as written, so shifting a timestamp
 * never goes through a double: "1234.567" microseconds plus 1000 s gives
 * "1000001234.567", every digit kept, whatever precision the input used.
 */
#ifndef F2T_DECIMAL_H
#define F2T_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* Room for any result of f2t_dec_shift_us(), NUL included. */
#define F2T_DEC_OUT_MAX 256

/**
 * f2t_dec_shift_us() - add nanoseconds to a number of microseconds
 * @num: the number as written (JSON syntax; exponents allowed)
 * @len: its length
 * @offset_ns: what to add, in nanoseconds
 * @out: F2T_DEC_OUT_MAX bytes; gets the sum in plain decimal notation
 *	(no exponent, no trailing fractional zeros), NUL-terminated
 *
 * Return: the length written, -EINVAL if @num is not a number, -ERANGE if it
 * has more digits or a larger exponent than a timestamp can sensibly have.
 */
int f2t_dec_shift_us(const char *num, size_t len, int64_t offset_ns, char *out);

/**
 * f2t_dec_us_to_ns() - a number of microseconds as integer nanoseconds
 * @num: the number as written
 * @len: its length
 * @ns: the value, rounded to the nearest nanosecond (halves away from zero)
 *
 * Return: 0, -EINVAL if not a number, -ERANGE if it does not fit an int64.
 */
int f2t_dec_us_to_ns(const char *num, size_t len, int64_t *ns);

/**
 * f2t_dec_sec_to_ns() - a number of seconds as integer nanoseconds
 * @s: "[+-]DIGITS[.DIGITS]", exponent allowed, NUL-terminated
 * @ns: the value, rounded to the nearest nanosecond
 *
 * Return: 0, -EINVAL if not a number, -ERANGE if it does not fit an int64.
 */
int f2t_dec_sec_to_ns(const char *s, int64_t *ns);

#endif
