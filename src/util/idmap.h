/* SPDX-License-Identifier: MIT */
/*
 * Entries of one fixed size found by an integer key (a tid, a pid): a
 * vector of entries in the order they were added, indexed by util/hash.h.
 * For the per-thread and per-process state the model and the symbolizer
 * keep; memory grows with the keys, never with events.
 *
 * Entry pointers stay valid until the next f2t_idmap_get() that adds one.
 */
#ifndef F2T_IDMAP_H
#define F2T_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"

struct f2t_idmap {
	struct f2t_hash index;	/* key -> position + 1 */
	int64_t *keys;
	unsigned char *e;	/* n entries of esize bytes */
	size_t esize, n, cap;
};

/* An empty map of entries of @esize bytes.  Return: 0 or -ENOMEM. */
int f2t_idmap_init(struct f2t_idmap *m, size_t esize);

/* Frees the map (not what its entries point to). */
void f2t_idmap_fini(struct f2t_idmap *m);

/* The entry of @key, or NULL. */
void *f2t_idmap_find(const struct f2t_idmap *m, int64_t key);

/**
 * f2t_idmap_get() - the entry of @key, added (zeroed) if new
 * @fresh: set true when it was added now (may be NULL)
 *
 * Return: the entry, or NULL with errno ENOMEM.
 */
void *f2t_idmap_get(struct f2t_idmap *m, int64_t key, bool *fresh);

/* The @i-th entry added (0 <= i < m->n) and its key. */
static inline void *f2t_idmap_at(const struct f2t_idmap *m, size_t i, int64_t *key)
{
	if (key)
		*key = m->keys[i];
	return m->e + i * m->esize;
}

#endif
