// SPDX-License-Identifier: MIT
/*
 * Two sets: a bitmap of module ids, and a hash set (util/hash.h) of
 * (pid, start, module) triples.  They grow with the mappings that samples
 * touch, never with the samples.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt/fxt_prof.h"
#include "util/hash.h"

struct key {
	uint64_t start;
	int32_t pid;
	uint32_t id;
};

struct fxt_prof {
	uint8_t *mods;
	size_t nmodbytes;
	struct key *keys;	/* the mappings seen, in order */
	size_t nkeys, cap;
	struct f2t_hash seen;	/* -> index into keys + 1 */
};

struct fxt_prof *fxt_prof_new(void)
{
	struct fxt_prof *p = calloc(1, sizeof(*p));

	if (p && f2t_hash_init(&p->seen, 1024)) {
		free(p);
		p = NULL;
	}
	return p;
}

void fxt_prof_free(struct fxt_prof *p)
{
	if (!p)
		return;
	free(p->mods);
	free(p->keys);
	f2t_hash_fini(&p->seen);
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

struct lookup {
	const struct key *keys;
	struct key want;
};

static bool same(uintptr_t val, const void *key)
{
	const struct lookup *l = key;
	const struct key *k = &l->keys[val - 1];

	return k->pid == l->want.pid && k->start == l->want.start && k->id == l->want.id;
}

int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint64_t start, uint32_t id)
{
	struct lookup l = { p->keys, { start, pid, id } };
	uint64_t h = f2t_hash_u64(start ^ f2t_hash_u64((uint64_t)(uint32_t)pid << 32 | id));

	if (f2t_hash_slot(&p->seen, h, same, &l)->val)
		return 0;
	if (f2t_hash_reserve(&p->seen))
		return -ENOMEM;
	if (p->nkeys == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 1024;
		struct key *k = realloc(p->keys, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		p->keys = k;
		p->cap = cap;
	}
	p->keys[p->nkeys++] = l.want;
	l.keys = p->keys;
	f2t_hash_put(&p->seen, f2t_hash_slot(&p->seen, h, same, &l), h, p->nkeys);
	return 1;
}
