// SPDX-License-Identifier: MIT
/* A set of strings over the hash table (hash.h); strings are never removed. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strset.h"

struct member {
	size_t len;
	char s[];
};

struct view {
	const char *s;
	size_t len;
};

static bool same(uintptr_t val, const void *key)
{
	const struct member *m = (const struct member *)val;
	const struct view *v = key;

	return m->len == v->len && !memcmp(m->s, v->s, v->len);
}

void f2t_strset_fini(struct f2t_strset *set)
{
	for (size_t i = 0; set->index.slot && i <= set->index.mask; i++)
		free((void *)set->index.slot[i].val);
	f2t_hash_fini(&set->index);
}

int f2t_strset_has(const struct f2t_strset *set, const char *s, size_t len)
{
	struct view v = { s, len };

	if (!set->index.slot)
		return 0;
	return f2t_hash_slot(&set->index, f2t_hash_bytes(s, len), same, &v)->val != 0;
}

int f2t_strset_add(struct f2t_strset *set, const char *s, size_t len)
{
	struct view v = { s, len };
	uint64_t h = f2t_hash_bytes(s, len);
	struct member *m;

	if (!set->index.slot && f2t_hash_init(&set->index, 16))
		return -ENOMEM;
	if (f2t_hash_slot(&set->index, h, same, &v)->val)
		return 0;
	if (f2t_hash_reserve(&set->index))
		return -ENOMEM;
	m = malloc(sizeof(*m) + len + 1);
	if (!m)
		return -ENOMEM;
	m->len = len;
	memcpy(m->s, s, len);
	m->s[len] = '\0';
	f2t_hash_put(&set->index, f2t_hash_slot(&set->index, h, same, &v), h, (uintptr_t)m);
	return 1;
}
