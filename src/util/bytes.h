/* SPDX-License-Identifier: MIT */
/*
 * Eight bytes tested at once: the text and string scans of a conversion
 * run over short fields and long plain runs, where a byte loop or a libc
 * call per field showed in profiles.  Each test is exact as a yes or no;
 * which byte matched, it does not say.
 */
#ifndef F2T_BYTES_H
#define F2T_BYTES_H

#include <stdint.h>

#define F2T_ONES 0x0101010101010101ull

/* Nonzero when a byte of X is below N (N at most 0x80). */
static inline uint64_t f2t_byte_below(uint64_t x, unsigned int n)
{
	return (x - F2T_ONES * n) & ~x & (F2T_ONES * 0x80);
}

/* Nonzero when a byte of X is C. */
static inline uint64_t f2t_byte_is(uint64_t x, unsigned char c)
{
	return f2t_byte_below(x ^ (F2T_ONES * c), 1);
}

#endif
