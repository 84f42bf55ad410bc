/* SPDX-License-Identifier: MIT */
/*
 * Byte strings to dense ids: the first key interned is id 0, the next new
 * one id 1, and so on; a key keeps its id for the interner's life.  The
 * interner keeps a copy of each key (followed by a NUL, so a text key reads
 * as a C string), indexed by util/hash.h.  An interner of all zeros is
 * empty; free it with f2t_intern_fini().
 *
 *   id = f2t_intern(&in, s, len, &fresh);     fresh: its first time
 *   s = f2t_intern_key(&in, id, &len);        valid until the next new key
 *
 * A key to intern must not point into the interner (its copies move as it grows).
 */
#ifndef F2T_INTERN_H
#define F2T_INTERN_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/hash.h"

struct f2t_intern {
	struct f2t_hash index;		/* -> id + 1 */
	char *pool;			/* the keys, each followed by a NUL */
	size_t plen, pcap;
	struct f2t_intern_ent {
		size_t off, len;	/* of the key in the pool */
	} *ent;
	size_t n, cap;			/* ids 0..n-1 */
};

/* f2t_intern_fini() - frees the interner's copies and index; it is empty again */
void f2t_intern_fini(struct f2t_intern *in);

/*
 * f2t_intern_clear() - forgets every key: the next one is id 0 again.  The
 * room for copies is kept; the index starts small again.
 */
void f2t_intern_clear(struct f2t_intern *in);

/* The hash table's comparison: is id @val - 1 the key @k (a struct f2t_intern_view)? */
struct f2t_intern_view {
	const struct f2t_intern *in;
	const void *s;
	size_t len;
};

static inline bool f2t_intern_same(uintptr_t val, const void *k)
{
	const struct f2t_intern_view *v = k;
	const struct f2t_intern_ent *e = &v->in->ent[val - 1];

	return e->len == v->len && !memcmp(v->in->pool + e->off, v->s, v->len);
}

/* Adds a new key with hash @h; the slow path of f2t_intern(). */
int64_t f2t_intern_add(struct f2t_intern *in, const void *s, size_t len, uint64_t h);

/**
 * f2t_intern() - the id of the @len bytes at @s, a new one if they are new
 * @fresh: set true when the id was given now (may be NULL)
 *
 * Return: the id, or -ENOMEM.
 */
static inline int64_t f2t_intern(struct f2t_intern *in, const void *s, size_t len, bool *fresh)
{
	struct f2t_intern_view v = { in, s, len };
	uint64_t h = f2t_hash_bytes(s, len);
	uintptr_t id = in->index.slot ? f2t_hash_slot(&in->index, h, f2t_intern_same, &v)->val : 0;

	if (fresh)
		*fresh = !id;
	return id ? (int64_t)id - 1 : f2t_intern_add(in, s, len, h);
}

/**
 * f2t_intern_find() - the id of the @len bytes at @s, if interned
 *
 * Return: the id, or -ENOENT.
 */
static inline int64_t f2t_intern_find(const struct f2t_intern *in, const void *s, size_t len)
{
	struct f2t_intern_view v = { in, s, len };
	uintptr_t id;

	if (!in->index.slot)
		return -ENOENT;
	id = f2t_hash_slot(&in->index, f2t_hash_bytes(s, len), f2t_intern_same, &v)->val;
	return id ? (int64_t)id - 1 : -ENOENT;
}

/* The key of @id (< in->n), NUL-terminated; its length in *@len (may be NULL). */
static inline const char *f2t_intern_key(const struct f2t_intern *in, size_t id, size_t *len)
{
	if (len)
		*len = in->ent[id].len;
	return in->pool + in->ent[id].off;
}

#endif
