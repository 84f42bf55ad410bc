/* SPDX-License-Identifier: MIT */
/*
 * A bounded protobuf decoder: the fields of one message, one at a time,
 * every length checked against the bytes the message has
 * (https://protobuf.dev/programming-guides/encoding/).  A nested message is
 * decoded by a reader over its field's bytes, which never reach past them;
 * packed repeated varints are read one at a time from theirs.  Groups
 * (wire types 3 and 4, which Perfetto's protos never use), a varint of more
 * than ten bytes, a length past the end and field number 0 are damage: the
 * reader says so and stops.  The caller decides how deep it goes (a schema
 * of known messages has a fixed depth) and reports, since it knows the file
 * and the offset (pbd_offset()).
 */
#ifndef F2T_PBDEC_H
#define F2T_PBDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pbd_wire {
	PBD_VARINT = 0,
	PBD_FIXED64 = 1,
	PBD_LEN = 2,
	PBD_FIXED32 = 5,
};

/* A message's bytes, read from p up to end. */
struct pbd {
	const uint8_t *p, *end;
};

/* One field: its number, wire type and value (v for numbers, data/len for bytes). */
struct pbd_field {
	uint32_t num;
	enum pbd_wire wire;
	uint64_t v;
	const uint8_t *data;
	size_t len;
};

static inline struct pbd pbd_init(const void *data, size_t len)
{
	/* NULL (a number field's bytes): nothing to read, and no arithmetic on NULL. */
	return (struct pbd){ data, data ? (const uint8_t *)data + len : NULL };
}

/* A reader over a length-delimited field's bytes (a nested message, a packed array). */
static inline struct pbd pbd_sub(const struct pbd_field *f)
{
	return pbd_init(f->data, f->len);
}

/**
 * pbd_varint() - one varint at @d->p, moving past it
 *
 * Return: true, or false (nothing moved) when it runs past the end or over
 * ten bytes.
 */
bool pbd_varint(struct pbd *d, uint64_t *v);

/**
 * pbd_next() - the next field of the message
 *
 * Return: 1 with @f filled, 0 at the message's end, -EINVAL when its bytes
 * are damaged (@d->p is then where the damage starts).
 */
int pbd_next(struct pbd *d, struct pbd_field *f);

/* A field as a string: false if it is not length-delimited. */
static inline bool pbd_is_len(const struct pbd_field *f)
{
	return f->wire == PBD_LEN;
}

/**
 * pbd_repeated() - the next value of a repeated varint field, packed or not
 * @f: the field as pbd_next() gave it: a varint (one value) or a packed run
 * @it: the packed run's reader, pbd_sub(@f) at the start; ignored for a varint
 * @first: true on the first call for @f
 *
 * Return: 1 with *@v, 0 past the last value, -EINVAL if the run is damaged
 * (or the wire type is neither).
 */
int pbd_repeated(const struct pbd_field *f, struct pbd *it, bool first, uint64_t *v);

#endif
