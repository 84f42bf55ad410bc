// SPDX-License-Identifier: MIT
/* Entries by integer key (idmap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/idmap.h"
#include "util/vec.h"

struct key {
	const struct f2t_idmap *m;
	int64_t k;
};

static bool same_key(uintptr_t val, const void *key)
{
	const struct key *k = key;

	return k->m->keys[val - 1] == k->k;
}

static inline struct f2t_hslot *slot_of(const struct f2t_idmap *m, int64_t k, uint64_t h)
{
	struct key key = { m, k };

	return f2t_hash_slot(&m->index, h, same_key, &key);
}

int f2t_idmap_init(struct f2t_idmap *m, size_t esize)
{
	*m = (struct f2t_idmap){ .esize = esize };
	return f2t_hash_init(&m->index, 64);
}

void f2t_idmap_fini(struct f2t_idmap *m)
{
	f2t_hash_fini(&m->index);
	free(m->keys);
	free(m->e);
	*m = (struct f2t_idmap){ 0 };
}

void *f2t_idmap_find(const struct f2t_idmap *m, int64_t key)
{
	uintptr_t v = slot_of(m, key, f2t_hash_u64((uint64_t)key))->val;

	return v ? m->e + (v - 1) * m->esize : NULL;
}

/* Keys and entries grow together: m->cap counts both once both have grown. */
static int grow(struct f2t_idmap *m)
{
	size_t kcap = m->cap;

	if (f2t_vec_reserve(&m->keys, &kcap, m->n + 1, 64))
		return -ENOMEM;
	return f2t_vec_reserve_(&m->e, &m->cap, m->esize, m->n + 1, 64);
}

void *f2t_idmap_get(struct f2t_idmap *m, int64_t key, bool *fresh)
{
	uint64_t h = f2t_hash_u64((uint64_t)key);
	struct f2t_hslot *s = slot_of(m, key, h);
	unsigned char *e;

	if (fresh)
		*fresh = !s->val;
	if (s->val)
		return m->e + (s->val - 1) * m->esize;
	if ((m->n == m->cap && grow(m)) || f2t_hash_reserve(&m->index)) {
		errno = ENOMEM;
		return NULL;
	}
	m->keys[m->n] = key;
	e = m->e + m->n * m->esize;
	memset(e, 0, m->esize);
	m->n++;
	f2t_hash_put(&m->index, slot_of(m, key, h), h, m->n);
	return e;
}
