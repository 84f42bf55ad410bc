// SPDX-License-Identifier: MIT
/*
 * Process address spaces: processes by pid (util/idmap.h), each a sorted
 * array of mappings (binary search on lookup); modules by name
 * (util/hash.h).  Memory grows with processes and mappings, not with
 * samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"
#include "util/hash.h"
#include "util/idmap.h"
#include "util/vec.h"

struct proc {
	struct f2t_mapping *v;
	size_t n, cap;
	uint64_t gen;		/* f2t_maps.gen when the mappings last changed */
};

struct modent {
	struct f2t_module mod;
	struct modent *older;	/* the module of the same path made before */
};

struct f2t_maps {
	struct f2t_idmap procs;		/* pid -> struct proc */
	struct f2t_hash by_name;	/* path -> struct modent *, the newest */
	struct f2t_module **mods;	/* by id - 1 */
	size_t nmods, mcap;
	/*
	 * Bumped by every change to any process: a process's gen is unique,
	 * so a cache keyed on it never mistakes a reused pid for the old one.
	 */
	uint64_t gen;
};

struct f2t_maps *f2t_maps_new(void)
{
	struct f2t_maps *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (f2t_idmap_init(&m->procs, sizeof(struct proc)) || f2t_hash_init(&m->by_name, 256)) {
		f2t_idmap_fini(&m->procs);
		free(m);
		return NULL;
	}
	return m;
}

void f2t_maps_free(struct f2t_maps *m, void (*free_syms)(void *))
{
	if (!m)
		return;
	for (size_t i = 0; i < m->procs.n; i++)
		free(((struct proc *)f2t_idmap_at(&m->procs, i, NULL))->v);
	f2t_idmap_fini(&m->procs);
	for (size_t i = 0; i < m->nmods; i++) {
		struct modent *e = (struct modent *)m->mods[i];

		if (free_syms && e->mod.syms)
			free_syms(e->mod.syms);
		free(e->mod.name);
		free(e);
	}
	f2t_hash_fini(&m->by_name);
	free(m->mods);
	free(m);
}

static struct proc *find_proc(const struct f2t_maps *m, int32_t pid)
{
	return f2t_idmap_find(&m->procs, pid);
}

/* Pointers to procs stay valid until the next call. */
static struct proc *get_proc(struct f2t_maps *m, int32_t pid)
{
	return f2t_idmap_get(&m->procs, pid, NULL);
}

struct name {
	const char *s;
	size_t len;
};

static bool same_name(uintptr_t val, const void *key)
{
	const struct modent *e = (const struct modent *)val;
	const struct name *n = key;

	return !strncmp(e->mod.name, n->s, n->len) && !e->mod.name[n->len];
}

struct f2t_module *f2t_maps_module(struct f2t_maps *m, const char *name, size_t len,
				   const struct f2t_build_id *build_id)
{
	struct name key = { name, len };
	uint64_t h = f2t_hash_bytes(name, len);
	bool known = build_id && build_id->len;
	struct f2t_hslot *slot = f2t_hash_slot(&m->by_name, h, same_name, &key);
	struct modent *e;

	for (e = (struct modent *)slot->val; e; e = e->older) {
		/*
		 * Same path: the same module unless both build-ids are known
		 * and differ (the file was replaced while the trace ran).
		 */
		if (!known || !e->mod.build_id.len)
			break;
		if (f2t_build_id_eq(&e->mod.build_id, build_id))
			return &e->mod;
	}
	if (e) {
		if (known && !e->mod.build_id.len)
			e->mod.build_id = *build_id;
		return &e->mod;
	}
	if (f2t_vec_reserve(&m->mods, &m->mcap, m->nmods + 1, 64))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->mod.name = strndup(name, len);
	if (!e->mod.name) {
		free(e);
		return NULL;
	}
	if (known)
		e->mod.build_id = *build_id;
	if (slot->val) {
		/* Same path, another file: the newest is found first. */
		e->older = (struct modent *)slot->val;
		slot->val = (uintptr_t)e;
	} else if (f2t_hash_reserve(&m->by_name)) {
		free(e->mod.name);
		free(e);
		return NULL;
	} else {
		f2t_hash_put(&m->by_name, f2t_hash_slot(&m->by_name, h, same_name, &key), h,
			     (uintptr_t)e);
	}
	e->mod.id = (uint32_t)m->nmods + 1;
	m->mods[m->nmods++] = &e->mod;
	return &e->mod;
}

/* First mapping of P ending after ADDR. */
static size_t first_after(const struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int f2t_maps_add(struct f2t_maps *m, int32_t pid, uint64_t start, uint64_t len,
		 uint64_t pgoff, struct f2t_module *mod)
{
	struct proc *p = get_proc(m, pid);
	uint64_t end = start + len;
	size_t i, j;

	if (!p || f2t_vec_reserve(&p->v, &p->cap, p->n + 2, 32))
		return -ENOMEM;
	if (!len || end < start)
		return 0;
	p->gen = ++m->gen;
	i = first_after(p, start);
	/* A mapping straddling START keeps its head; one straddling END its tail. */
	if (i < p->n && p->v[i].start < start) {
		struct f2t_mapping old = p->v[i];

		p->v[i].end = start;
		if (old.end > end) {
			/* The new one punches a hole: the tail becomes a mapping of its own. */
			memmove(&p->v[i + 2], &p->v[i + 1], (p->n - i - 1) * sizeof(*p->v));
			p->v[i + 1] = old;
			p->v[i + 1].pgoff += end - old.start;
			p->v[i + 1].start = end;
			p->n++;
		}
		i++;
	}
	for (j = i; j < p->n && p->v[j].end <= end; j++)
		;
	if (j < p->n && p->v[j].start < end) {
		p->v[j].pgoff += end - p->v[j].start;
		p->v[j].start = end;
	}
	/* [i, j) lie wholly inside the new mapping: replace them with it. */
	if (j - i != 1)
		memmove(&p->v[i + 1], &p->v[j], (p->n - j) * sizeof(*p->v));
	p->n = p->n - (j - i) + 1;
	p->v[i] = (struct f2t_mapping){ start, end, pgoff, mod };
	return 0;
}

int f2t_maps_fork(struct f2t_maps *m, int32_t parent, int32_t child)
{
	struct proc *c, *p;

	if (parent == child)
		return 0;
	c = get_proc(m, child);
	p = find_proc(m, parent);	/* after get_proc: it may move the table */
	if (!c)
		return -ENOMEM;
	c->n = 0;
	c->gen = ++m->gen;
	if (!p || !p->n)
		return 0;
	if (f2t_vec_reserve(&c->v, &c->cap, c->n + p->n, 32))
		return -ENOMEM;
	memcpy(c->v, p->v, p->n * sizeof(*p->v));
	c->n = p->n;
	return 0;
}

void f2t_maps_exec(struct f2t_maps *m, int32_t pid)
{
	struct proc *p = find_proc(m, pid);

	if (p) {
		p->n = 0;
		p->gen = ++m->gen;
	}
}

const struct f2t_mapping *f2t_maps_find(const struct f2t_maps *m, int32_t pid, uint64_t addr)
{
	const struct proc *p = pid > 0 ? find_proc(m, pid) : NULL;
	size_t i;

	if (!p)
		return NULL;
	i = first_after(p, addr);
	return i < p->n && p->v[i].start <= addr ? &p->v[i] : NULL;
}

const struct f2t_mapping *f2t_maps_list(const struct f2t_maps *m, int32_t pid, size_t *n,
				       uint64_t *gen)
{
	const struct proc *p = pid > 0 ? find_proc(m, pid) : NULL;

	*n = p ? p->n : 0;
	*gen = p ? p->gen : 0;
	return p ? p->v : NULL;
}

void f2t_maps_each_module(struct f2t_maps *m, void (*fn)(struct f2t_module *, void *),
			  void *ctx)
{
	for (size_t i = 0; i < m->nmods; i++)
		fn(m->mods[i], ctx);
}

int f2t_maps_parse_proc(struct f2t_maps *m, int32_t pid, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int added = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char line[4352];
		unsigned long long start, stop, off;
		int at = -1;
		size_t n;

		if (!nl)
			nl = end;
		n = (size_t)(nl - p) < sizeof(line) - 1 ? (size_t)(nl - p) : sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl + 1;
		/* "START-END PERMS OFFSET DEV INODE   PATH" */
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*u %n", &start, &stop, &off, &at) < 3 ||
		    at < 0 || !line[at] || stop <= start) {
			continue;
		}
		{
			struct f2t_module *mod = f2t_maps_module(m, line + at, strlen(line + at), NULL);

			if (!mod || f2t_maps_add(m, pid, start, stop - start, off, mod))
				return -ENOMEM;
		}
		added++;
	}
	return added;
}
