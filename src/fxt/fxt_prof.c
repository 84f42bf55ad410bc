// SPDX-License-Identifier: MIT
/*
 * Two sets: a bitmap of module ids, and an open-addressing hash set of
 * (pid, start, module) triples.  They grow with the mappings that samples
 * touch, never with the samples.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt/fxt_prof.h"

struct key {
	uint64_t start;
	int32_t pid;
	uint32_t id;		/* 0: empty slot (module ids start at 1) */
};

struct fxt_prof {
	uint8_t *mods;
	size_t nmodbytes;
	struct key *keys;
	size_t nkeys, cap;	/* cap: a power of two */
};

struct fxt_prof *fxt_prof_new(void)
{
	return calloc(1, sizeof(struct fxt_prof));
}

void fxt_prof_free(struct fxt_prof *p)
{
	if (!p)
		return;
	free(p->mods);
	free(p->keys);
	free(p);
}

int fxt_prof_first_module(struct fxt_prof *p, uint32_t id)
{
	size_t byte = id / 8;

	if (byte >= p->nmodbytes) {
		size_t n = p->nmodbytes ? p->nmodbytes : 64;
		uint8_t *m;

		while (n <= byte)
			n *= 2;
		m = realloc(p->mods, n);
		if (!m)
			return -ENOMEM;
		memset(m + p->nmodbytes, 0, n - p->nmodbytes);
		p->mods = m;
		p->nmodbytes = n;
	}
	if (p->mods[byte] & (1u << (id % 8)))
		return 0;
	p->mods[byte] |= (uint8_t)(1u << (id % 8));
	return 1;
}

static size_t hash(int32_t pid, uint64_t start, uint32_t id)
{
	uint64_t h = start ^ ((uint64_t)(uint32_t)pid << 32 | id);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

static int grow(struct fxt_prof *p)
{
	size_t ncap = p->cap ? p->cap * 2 : 1024, mask = ncap - 1;
	struct key *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->keys[i].id)
			continue;
		for (j = hash(p->keys[i].pid, p->keys[i].start, p->keys[i].id) & mask; n[j].id;
		     j = (j + 1) & mask)
			;
		n[j] = p->keys[i];
	}
	free(p->keys);
	p->keys = n;
	p->cap = ncap;
	return 0;
}

int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint64_t start, uint32_t id)
{
	size_t mask, i;

	if ((p->nkeys + 1) * 2 > p->cap && grow(p))
		return -ENOMEM;
	mask = p->cap - 1;
	for (i = hash(pid, start, id) & mask; p->keys[i].id; i = (i + 1) & mask)
		if (p->keys[i].pid == pid && p->keys[i].start == start && p->keys[i].id == id)
			return 0;
	p->keys[i] = (struct key){ start, pid, id };
	p->nkeys++;
	return 1;
}
