/* SPDX-License-Identifier: MIT */
/*
 * Small JSON building blocks for the writers: numbers formatted by hand
 * (exact, and much faster than printf in the per-event path) and string
 * escaping that always yields valid JSON, whatever bytes the kernel handed
 * us (task names and marker text can hold anything but NUL).
 */
#ifndef F2T_JSON_FMT_H
#define F2T_JSON_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/out.h"

/* Room for any number these functions format, sign and decimals included. */
#define F2T_JSON_NUM_MAX 32

/**
 * f2t_json_u64() - format an unsigned integer in decimal
 * @buf: at least F2T_JSON_NUM_MAX bytes; not NUL-terminated
 * @v: the value
 *
 * Return: the number of characters written.
 */
size_t f2t_json_u64(char *buf, uint64_t v);

/**
 * f2t_json_i64() - format a signed integer in decimal
 * @buf: at least F2T_JSON_NUM_MAX bytes; not NUL-terminated
 * @v: the value
 *
 * Return: the number of characters written.
 */
size_t f2t_json_i64(char *buf, int64_t v);

/**
 * f2t_json_ts() - format nanoseconds as the microseconds a "ts" field holds
 * @buf: at least F2T_JSON_NUM_MAX bytes; not NUL-terminated
 * @ns: the time in nanoseconds
 *
 * Always three decimals, so nanosecond precision survives: 1234567 ns gives
 * "1234.567", 5000 ns gives "5.000".
 *
 * Return: the number of characters written.
 */
size_t f2t_json_ts(char *buf, uint64_t ns);

/* The numbers above, written straight into @o. */
void f2t_json_put_u64(struct f2t_out *o, uint64_t v);
void f2t_json_put_i64(struct f2t_out *o, int64_t v);
void f2t_json_put_ts(struct f2t_out *o, uint64_t ns);

/**
 * f2t_json_put_double() - the shortest decimal that reads back as @v
 * @o: where to write
 * @v: a finite value (JSON has no infinity or NaN), so 0.1 stays "0.1"
 */
void f2t_json_put_double(struct f2t_out *o, double v);

/**
 * f2t_json_put_escaped() - write bytes as the inside of a JSON string
 * @o: where to write
 * @s: the bytes (need not be NUL-terminated)
 * @len: how many
 *
 * Quote and backslash are escaped, control characters become \n, \t, ... or
 * \u00XX, valid UTF-8 passes through unchanged, and every maximal ill-formed
 * subsequence (as Unicode defines it) becomes one U+FFFD, so the output is
 * always valid UTF-8 and valid JSON.
 */
void f2t_json_put_escaped(struct f2t_out *o, const char *s, size_t len);

/**
 * f2t_json_put_string() - write bytes as a quoted JSON string
 * @o: where to write
 * @s: the bytes
 * @len: how many
 */
void f2t_json_put_string(struct f2t_out *o, const char *s, size_t len);

struct f2t_identity;

/**
 * f2t_json_put_identity() - the members `,"KEY":VALUE` of every field of
 *			     @id (model/identity.h), the first with no comma
 *			     if @first; a number not known is null
 */
void f2t_json_put_identity(struct f2t_out *o, const struct f2t_identity *id, bool first);

#endif
