// SPDX-License-Identifier: MIT
/*
 * kallsyms index: one sorted array of (address, name, module), names in
 * one copied block.  Lookup is a binary search.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kallsyms.h"
#include "util/sort.h"
#include "util/vec.h"

/* How far past the last symbol of a module an address may still be its code. */
#define TAIL_SLACK 0x10000

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset into strs */
	uint32_t mod;		/* index into mods */
};

struct f2t_ksyms {
	struct ksym *v;
	size_t n;
	char *strs;
	struct f2t_kmod *mods;
	size_t nmods;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * The hexadecimal number at P (at most 16 digits, nothing before it) into
 * *V; returns where it ends, P when there is none.  strtoull() was a
 * twentieth of converting a million events: a line per kernel symbol.
 */
static char *hex_u64(char *p, unsigned long long *v)
{
	unsigned long long x = 0;
	char *s = p;

	for (;; p++) {
		unsigned int c = (unsigned char)*p, d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (p - s == 16)
			return s;	/* longer than an address */
		x = x << 4 | d;
	}
	*v = x;
	return p;
}

/* Index of module NAME (length LEN), added if new. */
static int mod_index(struct f2t_ksyms *k, char *name, size_t *cap)
{
	for (size_t i = k->nmods; i-- > 0;)
		if (!strcmp(k->mods[i].name, name))
			return (int)i;
	if (f2t_vec_reserve(&k->mods, cap, k->nmods + 1, 16))
		return -ENOMEM;
	k->mods[k->nmods] = (struct f2t_kmod){ .name = name, .start = UINT64_MAX };
	return (int)k->nmods++;
}

struct f2t_ksyms *f2t_ksyms_parse(const char *text, size_t len)
{
	struct f2t_ksyms *k = calloc(1, sizeof(*k));
	size_t cap = 0, modcap = 0;
	bool sorted = true;
	char *p, *end;
	int err = 0;

	if (!k)
		return NULL;
	/* Names are cut out of a private copy: NULs replace separators. */
	k->strs = malloc(len + sizeof("[kernel.kallsyms]") + 1);
	if (!k->strs) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(k->strs, text, len);
	k->strs[len] = '\0';
	strcpy(k->strs + len + 1, "[kernel.kallsyms]");
	if (mod_index(k, k->strs + len + 1, &modcap) < 0) {
		err = -ENOMEM;
		goto out;
	}
	for (p = k->strs, end = k->strs + len; p < end && !err;) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name, *sp, *tab;
		unsigned long long addr;
		int mod = 0;

		if (!nl)
			nl = end;
		*nl = '\0';
		sp = hex_u64(p, &addr);
		if (sp == p || sp[0] != ' ' || !sp[1] || sp[2] != ' ' || !addr)
			goto next;
		name = sp + 3;
		tab = strchr(name, '\t');
		if (tab) {
			*tab = '\0';
			/* "\t[mod]": keep the brackets, they are the name shown */
			if (tab[1] == '[') {
				mod = mod_index(k, tab + 1, &modcap);
				if (mod < 0) {
					err = -ENOMEM;
					break;
				}
			}
		}
		if (!*name)
			goto next;
		if (f2t_vec_reserve(&k->v, &cap, k->n + 1, 4096)) {
			err = -ENOMEM;
			break;
		}
		sorted = sorted && (!k->n || addr >= k->v[k->n - 1].addr);
		k->v[k->n++] = (struct ksym){ addr, (uint32_t)(name - k->strs), (uint32_t)mod };
		if (addr < k->mods[mod].start)
			k->mods[mod].start = addr;
		if (addr + 1 > k->mods[mod].end)
			k->mods[mod].end = addr + 1;
next:
		p = nl + 1;
	}
	if (!err) {
		/*
		 * /proc/kallsyms comes in address order (122 160 symbols, not one
		 * out of place, on the kernels here): sorting it again was a
		 * twentieth of converting a million events.
		 */
		if (!sorted)
			f2t_sort(k->v, k->n, sizeof(*k->v), by_addr);
		for (size_t i = 0; i < k->nmods; i++)
			k->mods[i].end += TAIL_SLACK;
	}
out:
	if (err) {
		f2t_ksyms_free(k);
		errno = -err;
		return NULL;
	}
	return k;
}

void f2t_ksyms_free(struct f2t_ksyms *k)
{
	if (!k)
		return;
	free(k->v);
	free(k->strs);
	free(k->mods);
	free(k);
}

size_t f2t_ksyms_count(const struct f2t_ksyms *k)
{
	return k ? k->n : 0;
}

const struct f2t_kmod *f2t_ksyms_module(const struct f2t_ksyms *k, uint64_t addr)
{
	for (size_t i = 0; k && i < k->nmods; i++)
		if (addr >= k->mods[i].start && addr < k->mods[i].end)
			return &k->mods[i];
	return NULL;
}

const char *f2t_ksyms_lookup(const struct f2t_ksyms *k, uint64_t addr,
			     const struct f2t_kmod **mod, uint64_t *off)
{
	size_t lo = 0, hi = k ? k->n : 0;
	const struct ksym *s;

	*mod = NULL;
	*off = 0;
	if (!hi || addr < k->v[0].addr)
		return NULL;
	/* The last symbol at or below addr. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	s = &k->v[lo];
	if (addr >= k->mods[s->mod].end)
		return NULL;
	*mod = &k->mods[s->mod];
	*off = addr - s->addr;
	return k->strs + s->name;
}
