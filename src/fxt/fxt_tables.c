// SPDX-License-Identifier: MIT
/*
 * String and thread tables for the FXT writer: chained hashing over slot
 * numbers (so a bucket costs 2 bytes) plus an LRU list threaded through the
 * same slots.  Slots are numbered 1..n locally, 0 meaning "none"; slot i
 * stands for table index first + i - 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt/fxt_enc.h"
#include "fxt/fxt_tables.h"
#include "util/hash.h"

/* Least recently used list: head is the newest, tail the next to evict. */
struct lru {
	uint16_t *prev, *next;
	uint16_t head, tail;
};

static void lru_unlink(struct lru *l, uint16_t i)
{
	uint16_t p = l->prev[i], n = l->next[i];

	if (p)
		l->next[p] = n;
	else
		l->head = n;
	if (n)
		l->prev[n] = p;
	else
		l->tail = p;
}

static void lru_push(struct lru *l, uint16_t i)
{
	l->prev[i] = 0;
	l->next[i] = l->head;
	if (l->head)
		l->prev[l->head] = i;
	l->head = i;
	if (!l->tail)
		l->tail = i;
}

static inline void lru_touch(struct lru *l, uint16_t i)
{
	if (l->head == i)
		return;
	lru_unlink(l, i);
	lru_push(l, i);
}

/* Removes slot I from the chain starting at *HEAD. */
static void chain_remove(uint16_t *head, uint16_t *next, uint16_t i)
{
	for (uint16_t *p = head; *p; p = &next[*p]) {
		if (*p == i) {
			*p = next[i];
			return;
		}
	}
}

struct str_slot {
	char *s;
	uint32_t len;
	uint32_t hash;
};

struct fxt_strtab {
	uint16_t first;
	uint32_t n;		/* slots available: last - first + 1 */
	uint32_t used;		/* slots 1..used hold strings */
	uint32_t cap;		/* slot arrays hold cap entries (slot 0 unused) */
	struct str_slot *slot;
	uint16_t *chain;	/* next slot in the same bucket */
	uint16_t *bucket;
	uint32_t nbuckets;	/* power of two */
	struct lru lru;
	uint64_t evictions;
};

struct fxt_strtab *fxt_strtab_new(uint16_t first, uint16_t last)
{
	struct fxt_strtab *t;

	if (first == 0 || last > FXT_MAX_STRING_INDEX || last < first) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->first = first;
	t->n = (uint32_t)last - first + 1;
	return t;
}

void fxt_strtab_free(struct fxt_strtab *t)
{
	if (!t)
		return;
	for (uint32_t i = 1; i <= t->used; i++)
		free(t->slot[i].s);
	free(t->slot);
	free(t->chain);
	free(t->bucket);
	free(t->lru.prev);
	free(t->lru.next);
	free(t);
}

static int strtab_rehash(struct fxt_strtab *t, uint32_t nbuckets)
{
	uint16_t *b = calloc(nbuckets, sizeof(*b));

	if (!b)
		return -ENOMEM;
	free(t->bucket);
	t->bucket = b;
	t->nbuckets = nbuckets;
	for (uint32_t i = 1; i <= t->used; i++) {
		uint32_t h = t->slot[i].hash & (nbuckets - 1);

		t->chain[i] = b[h];
		b[h] = (uint16_t)i;
	}
	return 0;
}

/* Makes room for slot number t->used + 1. */
static int strtab_grow(struct fxt_strtab *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 64;
	void *p;

	if (cap > t->n + 1)
		cap = t->n + 1;
	p = realloc(t->slot, cap * sizeof(*t->slot));
	if (!p)
		return -ENOMEM;
	t->slot = p;
	p = realloc(t->chain, cap * sizeof(*t->chain));
	if (!p)
		return -ENOMEM;
	t->chain = p;
	p = realloc(t->lru.prev, cap * sizeof(*t->lru.prev));
	if (!p)
		return -ENOMEM;
	t->lru.prev = p;
	p = realloc(t->lru.next, cap * sizeof(*t->lru.next));
	if (!p)
		return -ENOMEM;
	t->lru.next = p;
	t->cap = cap;
	/* Keep chains short: at least two buckets per slot. */
	if (t->nbuckets < cap * 2) {
		uint32_t nb = t->nbuckets ? t->nbuckets : 64;

		while (nb < cap * 2)
			nb *= 2;
		return strtab_rehash(t, nb);
	}
	return 0;
}

int fxt_strtab_intern(struct fxt_strtab *t, const char *s, size_t len, bool *fresh)
{
	uint32_t h;
	uint16_t i;
	char *copy;

	*fresh = false;
	if (len == 0)
		return -EINVAL;
	if (len > FXT_MAX_STRING_LEN)
		return -E2BIG;
	h = (uint32_t)f2t_hash_bytes(s, len);
	if (t->nbuckets) {
		for (i = t->bucket[h & (t->nbuckets - 1)]; i; i = t->chain[i]) {
			const struct str_slot *e = &t->slot[i];

			if (e->hash == h && e->len == len && !memcmp(e->s, s, len)) {
				lru_touch(&t->lru, i);
				return t->first + i - 1;
			}
		}
	}

	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	if (t->used < t->n) {
		if (t->used + 1 >= t->cap && strtab_grow(t) < 0) {
			free(copy);
			return -ENOMEM;
		}
		i = (uint16_t)++t->used;
	} else {
		i = t->lru.tail;
		lru_unlink(&t->lru, i);
		chain_remove(&t->bucket[t->slot[i].hash & (t->nbuckets - 1)], t->chain, i);
		free(t->slot[i].s);
		t->evictions++;
	}
	t->slot[i] = (struct str_slot){ .s = copy, .len = (uint32_t)len, .hash = h };
	t->chain[i] = t->bucket[h & (t->nbuckets - 1)];
	t->bucket[h & (t->nbuckets - 1)] = i;
	lru_push(&t->lru, i);
	*fresh = true;
	return t->first + i - 1;
}

unsigned int fxt_strtab_count(const struct fxt_strtab *t)
{
	return t->used;
}

uint64_t fxt_strtab_evictions(const struct fxt_strtab *t)
{
	return t->evictions;
}

/* Thread table: at most 255 entries, so fixed arrays. */
#define THR_BUCKETS 512u

struct fxt_thrtab {
	uint8_t first;
	uint32_t n, used;
	uint64_t pid[256], tid[256];
	uint16_t chain[256];
	uint16_t bucket[THR_BUCKETS];
	uint16_t prev[256], next[256];
	struct lru lru;
	uint64_t evictions;
};

static uint32_t hash_koids(uint64_t pid, uint64_t tid)
{
	uint64_t h = (pid * 0x9e3779b97f4a7c15ull) ^ (tid * 0xc2b2ae3d27d4eb4full);

	return (uint32_t)(h ^ (h >> 32)) & (THR_BUCKETS - 1);
}

struct fxt_thrtab *fxt_thrtab_new(uint8_t first, uint8_t last)
{
	struct fxt_thrtab *t;

	if (first == 0 || last < first) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->first = first;
	t->n = (uint32_t)last - first + 1;
	t->lru.prev = t->prev;
	t->lru.next = t->next;
	return t;
}

void fxt_thrtab_free(struct fxt_thrtab *t)
{
	free(t);
}

int fxt_thrtab_intern(struct fxt_thrtab *t, uint64_t pid, uint64_t tid, bool *fresh)
{
	uint32_t h = hash_koids(pid, tid);
	uint16_t i;

	for (i = t->bucket[h]; i; i = t->chain[i]) {
		if (t->pid[i] == pid && t->tid[i] == tid) {
			lru_touch(&t->lru, i);
			*fresh = false;
			return t->first + i - 1;
		}
	}
	if (t->used < t->n) {
		i = (uint16_t)++t->used;
	} else {
		i = t->lru.tail;
		lru_unlink(&t->lru, i);
		chain_remove(&t->bucket[hash_koids(t->pid[i], t->tid[i])], t->chain, i);
		t->evictions++;
	}
	t->pid[i] = pid;
	t->tid[i] = tid;
	t->chain[i] = t->bucket[h];
	t->bucket[h] = i;
	lru_push(&t->lru, i);
	*fresh = true;
	return t->first + i - 1;
}

uint64_t fxt_thrtab_evictions(const struct fxt_thrtab *t)
{
	return t->evictions;
}
