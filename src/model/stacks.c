// SPDX-License-Identifier: MIT
/*
 * Stack tree: strings interned once in a pool, nodes in an array indexed by
 * id, and two hash tables (util/hash.h): string -> pool offset, and
 * (parent, name, category) -> id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/stacks.h"
#include "util/hash.h"

struct node {
	uint32_t parent, name, cat;	/* name, cat: offsets into the pool */
};

struct f2t_stacks {
	char *pool;
	size_t plen, pcap;
	struct f2t_hash strs;		/* -> pool offset + 1 */
	struct node *nodes;		/* nodes[id - 1] */
	size_t nnodes, ncap;
	struct f2t_hash ids;		/* -> node id */
};

struct f2t_stacks *f2t_stacks_new(void)
{
	struct f2t_stacks *s = calloc(1, sizeof(*s));

	if (!s || f2t_hash_init(&s->strs, 512) || f2t_hash_init(&s->ids, 512)) {
		f2t_stacks_free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void f2t_stacks_free(struct f2t_stacks *s)
{
	if (!s)
		return;
	free(s->pool);
	f2t_hash_fini(&s->strs);
	free(s->nodes);
	f2t_hash_fini(&s->ids);
	free(s);
}

struct str_key {
	const char *pool, *s;
	size_t len;
};

static bool same_str(uintptr_t val, const void *key)
{
	const struct str_key *k = key;
	const char *have = k->pool + val - 1;

	return !strncmp(have, k->s, k->len) && !have[k->len];
}

/* The pool offset of STR[0..LEN), added once.  Negative errno on failure. */
static int64_t intern(struct f2t_stacks *s, const char *str, size_t len)
{
	struct str_key key = { s->pool, str, len };
	uint64_t h = f2t_hash_bytes(str, len);
	struct f2t_hslot *slot = f2t_hash_slot(&s->strs, h, same_str, &key);

	if (slot->val)
		return (int64_t)slot->val - 1;
	if (f2t_hash_reserve(&s->strs))
		return -ENOMEM;
	if (s->plen + len + 1 > s->pcap) {
		size_t cap = s->pcap ? s->pcap * 2 : 64 * 1024;
		char *p;

		while (cap < s->plen + len + 1)
			cap *= 2;
		if (cap > UINT32_MAX)
			return -E2BIG;
		p = realloc(s->pool, cap);
		if (!p)
			return -ENOMEM;
		s->pool = p;
		s->pcap = cap;
	}
	memcpy(s->pool + s->plen, str, len);
	s->pool[s->plen + len] = '\0';
	key.pool = s->pool;
	f2t_hash_put(&s->strs, f2t_hash_slot(&s->strs, h, same_str, &key), h, s->plen + 1);
	s->plen += len + 1;
	return (int64_t)(s->plen - len - 1);
}

struct node_key {
	const struct node *nodes;
	struct node want;
};

static bool same_node(uintptr_t val, const void *key)
{
	const struct node_key *k = key;
	const struct node *d = &k->nodes[val - 1];

	return d->parent == k->want.parent && d->name == k->want.name && d->cat == k->want.cat;
}

int64_t f2t_stacks_node(struct f2t_stacks *s, uint32_t parent, const char *name, size_t nlen,
			const char *category, size_t clen)
{
	int64_t n = intern(s, name, nlen), c = intern(s, category, clen);
	struct node_key key;
	struct f2t_hslot *slot;
	uint64_t h;

	if (n < 0 || c < 0)
		return n < 0 ? n : c;
	key = (struct node_key){ s->nodes, { parent, (uint32_t)n, (uint32_t)c } };
	h = f2t_hash_u64((uint64_t)parent << 32 ^ (uint64_t)n << 16 ^ (uint64_t)c);
	slot = f2t_hash_slot(&s->ids, h, same_node, &key);
	if (slot->val)
		return (int64_t)slot->val;
	if (f2t_hash_reserve(&s->ids))
		return -ENOMEM;
	if (s->nnodes == s->ncap) {
		size_t cap = s->ncap ? s->ncap * 2 : 1024;
		struct node *v = realloc(s->nodes, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->nodes = v;
		s->ncap = cap;
	}
	s->nodes[s->nnodes++] = key.want;
	key.nodes = s->nodes;
	f2t_hash_put(&s->ids, f2t_hash_slot(&s->ids, h, same_node, &key), h, s->nnodes);
	return (int64_t)s->nnodes;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

size_t f2t_frame_name(const struct f2t_frame *f, char *buf, size_t len)
{
	int n;

	if (f->func)
		n = snprintf(buf, len, "%s", f->func);
	else
		n = snprintf(buf, len, "%s+0x%llx", base_name(f->module ? f->module : "[unknown]"),
			     (unsigned long long)f->offset);
	if (n < 0)
		n = 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

uint32_t f2t_stacks_count(const struct f2t_stacks *s)
{
	return (uint32_t)s->nnodes;
}

void f2t_stacks_get(const struct f2t_stacks *s, uint32_t id, const char **name,
		    const char **category, uint32_t *parent)
{
	const struct node *d = &s->nodes[id - 1];

	*name = s->pool + d->name;
	*category = s->pool + d->cat;
	*parent = d->parent;
}
