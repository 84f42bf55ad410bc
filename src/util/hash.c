// SPDX-License-Identifier: MIT
/* The hash table (hash.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

/*
 * Eight bytes a step, each a multiply and a fold of the high half back
 * down: both undo-able, so keys of one length that differ in one word
 * never meet.  A byte a step (FNV-1a, as this was) made hashing a 64 KB
 * name 65 536 dependent multiplies: names that long come from damaged or
 * hostile symbol tables, and each is hashed per event that names it.
 */
uint64_t f2t_hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull, w;
	size_t n = len;

	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	if (n) {
		w = 0;
		memcpy(&w, b, n);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	/* The length tells "ab" from "ab\0"; the finalizer spreads the low bits the table indexes by. */
	return f2t_hash_u64(h ^ len);
}

int f2t_hash_init(struct f2t_hash *t, size_t cap)
{
	size_t n = 16;

	while (n < cap * 2)
		n *= 2;
	*t = (struct f2t_hash){ .slot = calloc(n, sizeof(*t->slot)), .mask = n - 1 };
	return t->slot ? 0 : -ENOMEM;
}

void f2t_hash_fini(struct f2t_hash *t)
{
	free(t->slot);
	*t = (struct f2t_hash){ 0 };
}

int f2t_hash_reserve(struct f2t_hash *t)
{
	size_t n = (t->mask + 1) * 2;
	struct f2t_hslot *slot;

	if ((t->used + 1) * 2 <= t->mask + 1)
		return 0;
	slot = calloc(n, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i <= t->mask; i++) {
		size_t j;

		if (!t->slot[i].val)
			continue;
		for (j = t->slot[i].hash & (n - 1); slot[j].val; j = (j + 1) & (n - 1))
			;
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->mask = n - 1;
	return 0;
}

void f2t_hash_remove(struct f2t_hash *t, struct f2t_hslot *s)
{
	size_t hole = (size_t)(s - t->slot);

	t->slot[hole].val = 0;
	t->used--;
	/* Move back every later value of the run whose home is not between the hole and it. */
	for (size_t i = (hole + 1) & t->mask; t->slot[i].val; i = (i + 1) & t->mask) {
		size_t home = t->slot[i].hash & t->mask;

		if ((i > hole && (home <= hole || home > i)) ||
		    (i < hole && home <= hole && home > i)) {
			t->slot[hole] = t->slot[i];
			t->slot[i].val = 0;
			hole = i;
		}
	}
}
