/* SPDX-License-Identifier: MIT */
/*
 * A protobuf encoder of our own, for Perfetto's Trace format: the wire
 * format's varints, tags, fixed64 and length-delimited fields
 * (https://protobuf.dev/programming-guides/encoding/).
 *
 * Two levels:
 *  - pb_enc_*(): pure functions that store one item at a caller's pointer
 *    and say how many bytes they used; the caller guarantees the room
 *    (PB_MAX_VARINT bytes for a varint).  Unit-tested byte for byte.
 *  - struct pb_buf: a growable buffer and the field writers built on them.
 *    A nested message is opened with pb_open(), which reserves one byte for
 *    its length, and closed with pb_close(), which writes the length once
 *    the body is known, moving the body when the length needs more than one
 *    byte; a message whose length is known beforehand (pb_len_size())
 *    is opened with pb_open_sized() instead, its length written first and
 *    nothing moved.  A buffer that fails to grow remembers -ENOMEM and ignores
 *    further writes, so callers check once (pb_buf.err).
 *
 * Negative int32/int64 values take ten bytes, as the format says; no field
 * we write is a sint (zigzag), so there is no zigzag encoder.
 */
#ifndef F2T_PB_H
#define F2T_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PB_MAX_VARINT 10

enum pb_wire {
	PB_VARINT = 0,
	PB_FIXED64 = 1,
	PB_LEN = 2,
	PB_FIXED32 = 5,
};

/** pb_varint_len() - bytes the varint of @v takes (1 to 10) */
static inline size_t pb_varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/**
 * pb_enc_varint() - store @v as a varint at @dst
 *
 * Inline: the compact scheduling columns are five varints an event.
 *
 * Return: bytes stored, pb_varint_len(@v).
 */
static inline size_t pb_enc_varint(uint8_t *dst, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		dst[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	dst[n++] = (uint8_t)v;
	return n;
}

/**
 * pb_enc_tag() - store the key of field @field with wire type @wire
 *
 * Inline, as everything a field is written with: the field numbers are
 * constants where they are written, so their keys are too.
 *
 * Return: bytes stored.
 */
static inline size_t pb_enc_tag(uint8_t *dst, uint32_t field, enum pb_wire wire)
{
	return pb_enc_varint(dst, (uint64_t)field << 3 | (uint64_t)wire);
}

/**
 * pb_enc_fixed64() - store @v in 8 little-endian bytes
 *
 * Return: 8.
 */
size_t pb_enc_fixed64(uint8_t *dst, uint64_t v);

struct pb_buf {
	uint8_t *p;
	size_t len, cap;
	int err;		/* 0, or -ENOMEM once growing failed */
};

/* pb_buf_free() - free the bytes; the buffer is empty and usable again */
void pb_buf_free(struct pb_buf *b);

/* pb_buf_grow() - room for @n more bytes; false (and b->err set) if none */
bool pb_buf_grow(struct pb_buf *b, size_t n);

static inline bool pb_room(struct pb_buf *b, size_t n)
{
	return b->cap - b->len >= n || pb_buf_grow(b, n);
}

/* pb_raw() - append @n bytes as they are (an already encoded message, say) */
static inline void pb_raw(struct pb_buf *b, const void *p, size_t n)
{
	/* n == 0 first: an empty buffer has no memory to add 0 to. */
	if (!n || !pb_room(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* pb_varint() - append a bare varint (an element of a packed field) */
static inline void pb_varint(struct pb_buf *b, uint64_t v)
{
	if (pb_room(b, PB_MAX_VARINT))
		b->len += pb_enc_varint(b->p + b->len, v);
}

/* pb_uint() - a varint field: uint32, uint64, bool, enum, or int32/int64 >= 0 */
static inline void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	if (!pb_room(b, 2 * PB_MAX_VARINT))
		return;
	b->len += pb_enc_tag(b->p + b->len, field, PB_VARINT);
	b->len += pb_enc_varint(b->p + b->len, v);
}

/* pb_int() - an int32 or int64 field (negative: ten bytes, two's complement) */
static inline void pb_int(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

/* pb_double() - a double field (fixed64) */
void pb_double(struct pb_buf *b, uint32_t field, double v);

/* pb_bytes() - a string, bytes or already encoded message field */
static inline void pb_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t len)
{
	if (!pb_room(b, 2 * PB_MAX_VARINT + len))
		return;
	b->len += pb_enc_tag(b->p + b->len, field, PB_LEN);
	b->len += pb_enc_varint(b->p + b->len, len);
	if (len)
		memcpy(b->p + b->len, p, len);
	b->len += len;
}

static inline void pb_str(struct pb_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/**
 * pb_open() - start a nested message (or packed field) in field @field
 *
 * Return: where its body starts, for pb_close().
 */
static inline size_t pb_open(struct pb_buf *b, uint32_t field)
{
	if (!pb_room(b, PB_MAX_VARINT + 1))
		return b->len;
	b->len += pb_enc_tag(b->p + b->len, field, PB_LEN);
	b->p[b->len++] = 0;	/* the length, when it fits one byte */
	return b->len;
}

/* pb_uint_size() - bytes pb_uint(@field, @v) writes */
static inline size_t pb_uint_size(uint32_t field, uint64_t v)
{
	return pb_varint_len((uint64_t)field << 3) + pb_varint_len(v);
}

/* pb_len_size() - bytes a length-delimited field @field with @len bytes of body takes */
static inline size_t pb_len_size(uint32_t field, size_t len)
{
	return pb_varint_len((uint64_t)field << 3) + pb_varint_len(len) + len;
}

/**
 * pb_open_sized() - start a nested message in field @field whose body,
 *		     @len bytes, the caller knows beforehand
 *
 * Its length is written now: no pb_close(), and a long body is not moved
 * to make room for it.
 */
static inline void pb_open_sized(struct pb_buf *b, uint32_t field, size_t len)
{
	if (!pb_room(b, 2 * PB_MAX_VARINT))
		return;
	b->len += pb_enc_tag(b->p + b->len, field, PB_LEN);
	b->len += pb_enc_varint(b->p + b->len, len);
}

/* pb_close() of a body of 128 bytes or more: moved to make room for its length. */
void pb_close_long(struct pb_buf *b, size_t body);

/** pb_close() - end the message pb_open() started at @body: write its length */
static inline void pb_close(struct pb_buf *b, size_t body)
{
	/* Most messages are short: their length fits the byte reserved. */
	if (!b->err && b->len - body < 0x80)
		b->p[body - 1] = (uint8_t)(b->len - body);
	else
		pb_close_long(b, body);
}

#endif
