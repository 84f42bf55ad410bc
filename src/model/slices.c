// SPDX-License-Identifier: MIT
/*
 * Open-addressing hash of tid -> depth.  Entries are never removed (a thread
 * that closed all its slices keeps a depth-0 entry), so lookups need no
 * tombstones and the table stays bounded by the threads seen.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/slices.h"

#define EMPTY_TID INT32_MIN	/* no thread has this id */
#define INITIAL_CAP 64		/* a power of two */

struct slot {
	int32_t tid;
	uint32_t depth;
};

struct f2t_slices {
	struct slot *slots;
	uint32_t cap;		/* power of two */
	uint32_t used;
	uint64_t unmatched;
	uint64_t open;
};

static uint32_t hash_tid(int32_t tid)
{
	/* Fibonacci hashing spreads sequential tids over the table. */
	return (uint32_t)(((uint64_t)(uint32_t)tid * 0x9E3779B97F4A7C15ull) >> 32);
}

static struct slot *alloc_slots(uint32_t cap)
{
	struct slot *slots = malloc(sizeof(*slots) * cap);

	if (!slots)
		return NULL;
	for (uint32_t i = 0; i < cap; i++)
		slots[i] = (struct slot){ EMPTY_TID, 0 };
	return slots;
}

struct f2t_slices *f2t_slices_new(void)
{
	struct f2t_slices *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->slots = alloc_slots(INITIAL_CAP);
	if (!s->slots) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	s->cap = INITIAL_CAP;
	return s;
}

void f2t_slices_free(struct f2t_slices *s)
{
	if (!s)
		return;
	free(s->slots);
	free(s);
}

/* The slot holding TID, or the empty slot where it would go. */
static struct slot *find(const struct f2t_slices *s, int32_t tid)
{
	uint32_t mask = s->cap - 1;

	for (uint32_t i = hash_tid(tid) & mask;; i = (i + 1) & mask)
		if (s->slots[i].tid == tid || s->slots[i].tid == EMPTY_TID)
			return &s->slots[i];
}

static int grow(struct f2t_slices *s)
{
	struct f2t_slices bigger = *s;

	if (s->cap > UINT32_MAX / 2)
		return -ENOMEM;
	bigger.cap = s->cap * 2;
	bigger.slots = alloc_slots(bigger.cap);
	if (!bigger.slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->cap; i++)
		if (s->slots[i].tid != EMPTY_TID)
			*find(&bigger, s->slots[i].tid) = s->slots[i];
	free(s->slots);
	*s = bigger;
	return 0;
}

int f2t_slices_begin(struct f2t_slices *s, int32_t tid)
{
	struct slot *slot;

	if (tid == EMPTY_TID)
		return -EINVAL;
	slot = find(s, tid);
	if (slot->tid == EMPTY_TID) {
		/* Keep the load under 3/4 so probes stay short. */
		if ((s->used + 1) * 4 > s->cap * 3) {
			if (grow(s) < 0)
				return -ENOMEM;
			slot = find(s, tid);
		}
		slot->tid = tid;
		s->used++;
	}
	if (slot->depth == UINT32_MAX)
		return -EOVERFLOW;
	slot->depth++;
	s->open++;
	return slot->depth > INT32_MAX ? INT32_MAX : (int)slot->depth;
}

bool f2t_slices_end(struct f2t_slices *s, int32_t tid)
{
	struct slot *slot = find(s, tid);

	if (slot->tid != tid || !slot->depth) {
		s->unmatched++;
		return false;
	}
	slot->depth--;
	s->open--;
	return true;
}

uint32_t f2t_slices_depth(const struct f2t_slices *s, int32_t tid)
{
	const struct slot *slot = find(s, tid);

	return slot->tid == tid ? slot->depth : 0;
}

uint64_t f2t_slices_unmatched(const struct f2t_slices *s)
{
	return s->unmatched;
}

uint64_t f2t_slices_open(const struct f2t_slices *s)
{
	return s->open;
}

int f2t_slices_each_open(const struct f2t_slices *s,
			 int (*fn)(int32_t tid, uint32_t depth, void *ctx), void *ctx)
{
	for (uint32_t i = 0; i < s->cap; i++) {
		int r;

		if (s->slots[i].tid == EMPTY_TID || !s->slots[i].depth)
			continue;
		r = fn(s->slots[i].tid, s->slots[i].depth, ctx);
		if (r)
			return r;
	}
	return 0;
}
