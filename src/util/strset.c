// SPDX-License-Identifier: MIT
/* Open addressing with linear probing; strings are never removed. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strset.h"

struct f2t_strset_slot {
	char *s;		/* NULL: empty */
	size_t len;
	uint64_t hash;
};

static uint64_t hash_bytes(const char *s, size_t len)
{
	/* FNV-1a: simple, and good enough for ids and names. */
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

void f2t_strset_fini(struct f2t_strset *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slots[i].s);
	free(set->slots);
	*set = (struct f2t_strset){ 0 };
}

static struct f2t_strset_slot *find(const struct f2t_strset *set, const char *s, size_t len,
				    uint64_t h)
{
	size_t mask = set->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct f2t_strset_slot *slot = &set->slots[i];

		if (!slot->s || (slot->hash == h && slot->len == len && !memcmp(slot->s, s, len)))
			return slot;
	}
}

static int grow(struct f2t_strset *set)
{
	size_t cap = set->cap ? set->cap * 2 : 16;
	struct f2t_strset bigger = { calloc(cap, sizeof(struct f2t_strset_slot)), cap, set->used };

	if (!bigger.slots)
		return -ENOMEM;
	for (size_t i = 0; i < set->cap; i++)
		if (set->slots[i].s)
			*find(&bigger, set->slots[i].s, set->slots[i].len, set->slots[i].hash) =
				set->slots[i];
	free(set->slots);
	*set = bigger;
	return 0;
}

int f2t_strset_has(const struct f2t_strset *set, const char *s, size_t len)
{
	if (!set->cap)
		return 0;
	return find(set, s, len, hash_bytes(s, len))->s != NULL;
}

int f2t_strset_add(struct f2t_strset *set, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	struct f2t_strset_slot *slot;

	/* Grow at half full: probes stay short. */
	if ((set->used + 1) * 2 > set->cap && grow(set) < 0)
		return -ENOMEM;
	slot = find(set, s, len, h);
	if (slot->s)
		return 0;
	slot->s = malloc(len + 1);
	if (!slot->s)
		return -ENOMEM;
	memcpy(slot->s, s, len);
	slot->s[len] = '\0';
	slot->len = len;
	slot->hash = h;
	set->used++;
	return 1;
}
