// SPDX-License-Identifier: MIT
/*
 * Stack tree: names and categories in a util/intern.h, nodes in an array
 * (util/vec.h) indexed by id - 1, found by util/hash.h from (parent, name,
 * category).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/stacks.h"
#include "util/hash.h"
#include "util/intern.h"
#include "util/vec.h"

struct node {
	uint32_t parent, name, cat;	/* name, cat: in strs */
};

struct f2t_stacks {
	struct f2t_intern strs;
	struct node *nodes;		/* nodes[id - 1] */
	size_t nnodes, ncap;
	struct f2t_hash ids;		/* -> node id */
};

struct f2t_stacks *f2t_stacks_new(void)
{
	struct f2t_stacks *s = calloc(1, sizeof(*s));

	if (!s || f2t_hash_init(&s->ids, 512)) {
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
	f2t_intern_fini(&s->strs);
	free(s->nodes);
	f2t_hash_fini(&s->ids);
	free(s);
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
	int64_t n = f2t_intern(&s->strs, name, nlen, NULL);
	int64_t c = f2t_intern(&s->strs, category, clen, NULL);
	struct node_key key;
	struct f2t_hslot *slot;
	uint64_t h;

	if (n < 0 || c < 0 || n > UINT32_MAX || c > UINT32_MAX)
		return -ENOMEM;
	key = (struct node_key){ s->nodes, { parent, (uint32_t)n, (uint32_t)c } };
	h = f2t_hash_u64((uint64_t)parent << 32 ^ (uint64_t)n << 16 ^ (uint64_t)c);
	slot = f2t_hash_slot(&s->ids, h, same_node, &key);
	if (slot->val)
		return (int64_t)slot->val;
	if (f2t_hash_reserve(&s->ids) || f2t_vec_reserve(&s->nodes, &s->ncap, s->nnodes + 1, 1024))
		return -ENOMEM;
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

/*
 * Up to LEN - 1 bytes of S into BUF, ended: snprintf("%s") would read all of
 * a name to return its length, and kernel and JIT names can be tens of KB.
 */
static size_t put_cut(char *buf, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memcpy(buf, s, n);
	buf[n] = '\0';
	return n;
}

size_t f2t_frame_name(const struct f2t_frame *f, char *buf, size_t len)
{
	size_t n;
	int k;

	if (f->func)
		return put_cut(buf, len, f->func);
	n = put_cut(buf, len, base_name(f->module ? f->module : "[unknown]"));
	k = snprintf(buf + n, len - n, "+0x%llx", (unsigned long long)f->offset);
	n += k > 0 ? (size_t)k : 0;
	return n < len ? n : len - 1;
}

uint32_t f2t_stacks_count(const struct f2t_stacks *s)
{
	return (uint32_t)s->nnodes;
}
