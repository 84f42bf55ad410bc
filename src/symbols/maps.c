// SPDX-License-Identifier: MIT
/*
 * Process address spaces: an open-addressing table of processes, each a
 * sorted array of mappings (binary search on lookup); modules in a chained
 * hash on their name.  Memory grows with processes and mappings, not with
 * samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"

#define MOD_BUCKETS 4096

struct proc {
	int32_t pid;		/* 0: empty slot (pid 0 has no user mappings) */
	struct f2t_mapping *v;
	size_t n, cap;
	uint64_t gen;		/* f2t_maps.gen when the mappings last changed */
};

struct modent {
	struct f2t_module mod;
	struct modent *next;	/* same bucket */
};

struct f2t_maps {
	struct proc *procs;
	size_t nprocs, pcap;	/* pcap: a power of two */
	struct modent *buckets[MOD_BUCKETS];
	struct f2t_module **mods;	/* by id - 1 */
	size_t nmods, mcap;
	/*
	 * Bumped by every change to any process: a process's gen is unique,
	 * so a cache keyed on it never mistakes a reused pid for the old one.
	 */
	uint64_t gen;
};

static uint32_t hash_pid(int32_t pid)
{
	return (uint32_t)pid * 2654435761u;
}

static uint32_t hash_name(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

struct f2t_maps *f2t_maps_new(void)
{
	struct f2t_maps *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->pcap = 256;
	m->procs = calloc(m->pcap, sizeof(*m->procs));
	if (!m->procs) {
		free(m);
		return NULL;
	}
	return m;
}

void f2t_maps_free(struct f2t_maps *m, void (*free_syms)(void *))
{
	if (!m)
		return;
	for (size_t i = 0; i < m->pcap; i++)
		free(m->procs[i].v);
	free(m->procs);
	for (size_t i = 0; i < MOD_BUCKETS; i++) {
		for (struct modent *e = m->buckets[i], *next; e; e = next) {
			next = e->next;
			if (free_syms && e->mod.syms)
				free_syms(e->mod.syms);
			free(e->mod.name);
			free(e);
		}
	}
	free(m->mods);
	free(m);
}

static struct proc *find_proc(const struct f2t_maps *m, int32_t pid)
{
	size_t mask = m->pcap - 1;

	for (size_t i = hash_pid(pid) & mask;; i = (i + 1) & mask) {
		if (m->procs[i].pid == pid)
			return &m->procs[i];
		if (!m->procs[i].pid)
			return NULL;
	}
}

static int grow_procs(struct f2t_maps *m)
{
	size_t ncap = m->pcap * 2, mask = ncap - 1;
	struct proc *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < m->pcap; i++) {
		size_t j;

		if (!m->procs[i].pid)
			continue;
		for (j = hash_pid(m->procs[i].pid) & mask; n[j].pid; j = (j + 1) & mask)
			;
		n[j] = m->procs[i];
	}
	free(m->procs);
	m->procs = n;
	m->pcap = ncap;
	return 0;
}

static struct proc *get_proc(struct f2t_maps *m, int32_t pid)
{
	struct proc *p = find_proc(m, pid);
	size_t mask;

	if (p)
		return p;
	if ((m->nprocs + 1) * 2 > m->pcap && grow_procs(m))
		return NULL;
	mask = m->pcap - 1;
	for (size_t i = hash_pid(pid) & mask;; i = (i + 1) & mask) {
		if (!m->procs[i].pid) {
			m->procs[i].pid = pid;
			m->nprocs++;
			return &m->procs[i];
		}
	}
}

struct f2t_module *f2t_maps_module(struct f2t_maps *m, const char *name, size_t len,
				   const struct f2t_build_id *build_id)
{
	uint32_t b = hash_name(name, len) % MOD_BUCKETS;
	bool known = build_id && build_id->len;
	struct modent *e;

	for (e = m->buckets[b]; e; e = e->next) {
		if (strncmp(e->mod.name, name, len) || e->mod.name[len])
			continue;
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
	if (m->nmods == m->mcap) {
		size_t cap = m->mcap ? m->mcap * 2 : 64;
		struct f2t_module **v = realloc(m->mods, cap * sizeof(*v));

		if (!v)
			return NULL;
		m->mods = v;
		m->mcap = cap;
	}
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
	e->mod.id = (uint32_t)m->nmods + 1;
	m->mods[m->nmods++] = &e->mod;
	e->next = m->buckets[b];
	m->buckets[b] = e;
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

static int reserve(struct proc *p, size_t more)
{
	if (p->n + more > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct f2t_mapping *v;

		while (cap < p->n + more)
			cap *= 2;
		v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	return 0;
}

int f2t_maps_add(struct f2t_maps *m, int32_t pid, uint64_t start, uint64_t len,
		 uint64_t pgoff, struct f2t_module *mod)
{
	struct proc *p = get_proc(m, pid);
	uint64_t end = start + len;
	size_t i, j;

	if (!p || reserve(p, 2))
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
	if (reserve(c, p->n))
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
