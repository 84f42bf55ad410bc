// SPDX-License-Identifier: MIT
/*
 * Stack tree: strings interned once in a pool, nodes in an array indexed by
 * id, and one open-addressing table from (parent, name, category) to id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/stacks.h"

struct node {
	uint32_t parent, name, cat;	/* name, cat: offsets into the pool */
};

struct f2t_stacks {
	char *pool;
	size_t plen, pcap;
	uint32_t *strtab;		/* pool offsets + 1; 0 empty; power-of-two size */
	size_t nstr, strcap;
	struct node *nodes;		/* nodes[id - 1] */
	size_t nnodes, ncap;
	uint32_t *idtab;		/* node ids; 0 empty; power-of-two size */
	size_t idcap;
};

static uint64_t fnv(const void *p, size_t len, uint64_t h)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

struct f2t_stacks *f2t_stacks_new(void)
{
	return calloc(1, sizeof(struct f2t_stacks));
}

void f2t_stacks_free(struct f2t_stacks *s)
{
	if (!s)
		return;
	free(s->pool);
	free(s->strtab);
	free(s->nodes);
	free(s->idtab);
	free(s);
}

static int grow_strtab(struct f2t_stacks *s)
{
	size_t ncap = s->strcap ? s->strcap * 2 : 1024, mask = ncap - 1;
	uint32_t *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < s->strcap; i++) {
		const char *str;
		size_t j;

		if (!s->strtab[i])
			continue;
		str = s->pool + s->strtab[i] - 1;
		for (j = fnv(str, strlen(str), 14695981039346656037ull) & mask; n[j];
		     j = (j + 1) & mask)
			;
		n[j] = s->strtab[i];
	}
	free(s->strtab);
	s->strtab = n;
	s->strcap = ncap;
	return 0;
}

/* The pool offset of STR[0..LEN), added once.  Negative errno on failure. */
static int64_t intern(struct f2t_stacks *s, const char *str, size_t len)
{
	size_t mask, i;

	if ((s->nstr + 1) * 2 > s->strcap && grow_strtab(s))
		return -ENOMEM;
	mask = s->strcap - 1;
	for (i = fnv(str, len, 14695981039346656037ull) & mask; s->strtab[i]; i = (i + 1) & mask) {
		const char *have = s->pool + s->strtab[i] - 1;

		if (!strncmp(have, str, len) && !have[len])
			return s->strtab[i] - 1;
	}
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
	s->strtab[i] = (uint32_t)s->plen + 1;
	s->nstr++;
	s->plen += len + 1;
	return s->strtab[i] - 1;
}

static size_t node_hash(uint32_t parent, uint32_t name, uint32_t cat)
{
	uint64_t k[2] = { (uint64_t)parent << 32 | name, cat };

	return (size_t)fnv(k, sizeof(k), 14695981039346656037ull);
}

static int grow_idtab(struct f2t_stacks *s)
{
	size_t ncap = s->idcap ? s->idcap * 2 : 1024, mask = ncap - 1;
	uint32_t *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t id = 1; id <= s->nnodes; id++) {
		const struct node *d = &s->nodes[id - 1];
		size_t j;

		for (j = node_hash(d->parent, d->name, d->cat) & mask; n[j]; j = (j + 1) & mask)
			;
		n[j] = (uint32_t)id;
	}
	free(s->idtab);
	s->idtab = n;
	s->idcap = ncap;
	return 0;
}

int64_t f2t_stacks_node(struct f2t_stacks *s, uint32_t parent, const char *name, size_t nlen,
			const char *category, size_t clen)
{
	int64_t n = intern(s, name, nlen), c = intern(s, category, clen);
	size_t mask, i;

	if (n < 0 || c < 0)
		return n < 0 ? n : c;
	if ((s->nnodes + 1) * 2 > s->idcap && grow_idtab(s))
		return -ENOMEM;
	mask = s->idcap - 1;
	for (i = node_hash(parent, (uint32_t)n, (uint32_t)c) & mask; s->idtab[i];
	     i = (i + 1) & mask) {
		const struct node *d = &s->nodes[s->idtab[i] - 1];

		if (d->parent == parent && d->name == (uint32_t)n && d->cat == (uint32_t)c)
			return s->idtab[i];
	}
	if (s->nnodes == s->ncap) {
		size_t cap = s->ncap ? s->ncap * 2 : 1024;
		struct node *v = realloc(s->nodes, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->nodes = v;
		s->ncap = cap;
	}
	s->nodes[s->nnodes++] = (struct node){ parent, (uint32_t)n, (uint32_t)c };
	s->idtab[i] = (uint32_t)s->nnodes;
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

int64_t f2t_stacks_add(struct f2t_stacks *s, const struct f2t_frame *frames, size_t n)
{
	int64_t id = 0;
	char name[512];

	if (!n)
		return f2t_stacks_node(s, 0, "[unknown]", 9, "[unknown]", 9);
	/* Root first: the outermost frame is the last one. */
	for (size_t i = n; i-- > 0;) {
		const struct f2t_frame *f = &frames[i];
		const char *mod = f->module ? f->module : "[unknown]";
		size_t len = f2t_frame_name(f, name, sizeof(name));

		id = f2t_stacks_node(s, (uint32_t)id, name, len, mod, strlen(mod));
		if (id < 0)
			return id;
	}
	return id;
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
