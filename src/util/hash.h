/* SPDX-License-Identifier: MIT */
/*
 * The one hash table of the program: an open-addressing index (linear
 * probing, a power-of-two size, at most half full) from a 64-bit hash to a
 * value the caller gives meaning to: a pointer, or an index into an array
 * of its own plus one.  The caller keeps the keys; it is asked to compare
 * one only when the stored hash matches.  Values are removed without
 * tombstones (later ones shift back).
 *
 *   s = f2t_hash_slot(&t, h, eq, &key);     the value's slot, or the empty one for it
 *   if (!s->val && !f2t_hash_reserve(&t))  room for one more (slots may move) ...
 *           f2t_hash_put(&t, f2t_hash_slot(&t, h, eq, &key), h, val);
 */
#ifndef F2T_HASH_H
#define F2T_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct f2t_hslot {
	uint64_t hash;
	uintptr_t val;		/* 0: empty */
};

struct f2t_hash {
	struct f2t_hslot *slot;
	size_t mask;		/* slots - 1 */
	size_t used;
};

/* Does the caller's value @val have key @key? */
typedef bool (*f2t_hash_eq_fn)(uintptr_t val, const void *key);

/* A hash of bytes (eight at a time, then mixed so every bit counts). */
uint64_t f2t_hash_bytes(const void *p, size_t len);

/* A hash of a number (splitmix64's finalizer: every input bit reaches every output bit). */
static inline uint64_t f2t_hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/**
 * f2t_hash_init() - an empty table with room for @cap values before it grows
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_hash_init(struct f2t_hash *t, size_t cap);

/* f2t_hash_fini() - frees the table (not what its values point to) */
void f2t_hash_fini(struct f2t_hash *t);

/**
 * f2t_hash_slot() - the slot of the value with hash @h and key @key
 *
 * Return: its slot, or the empty slot where it would go (val 0).  Valid
 * until the table changes.
 */
static inline struct f2t_hslot *f2t_hash_slot(const struct f2t_hash *t, uint64_t h,
					      f2t_hash_eq_fn eq, const void *key)
{
	for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
		struct f2t_hslot *s = &t->slot[i];

		if (!s->val || (s->hash == h && eq(s->val, key)))
			return s;
	}
}

/**
 * f2t_hash_reserve() - room for one more value
 *
 * Grows the table when it would be more than half full; slots found before
 * are then stale.  Return: 0 or -ENOMEM.
 */
int f2t_hash_reserve(struct f2t_hash *t);

/* Stores @val (non-zero) with hash @h in the empty slot @s, after a reserve. */
static inline void f2t_hash_put(struct f2t_hash *t, struct f2t_hslot *s, uint64_t h,
				uintptr_t val)
{
	s->hash = h;
	s->val = val;
	t->used++;
}

/* Removes the value in slot @s; later values of its run move back. */
void f2t_hash_remove(struct f2t_hash *t, struct f2t_hslot *s);

#endif
