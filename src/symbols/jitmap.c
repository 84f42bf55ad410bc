// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/jitmap.h"
#include "util/sort.h"
#include "util/vec.h"

struct jsym {
	uint64_t start, size;
	const char *name;
};

struct f2t_jitmap {
	struct jsym *v;
	size_t n;
	char *text;
};

static int by_start(const void *a, const void *b)
{
	const struct jsym *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

struct f2t_jitmap *f2t_jitmap_parse(const char *text, size_t len)
{
	struct f2t_jitmap *j = calloc(1, sizeof(*j));
	size_t cap = 0;
	char *p, *end;

	if (!j)
		return NULL;
	j->text = malloc(len + 1);
	if (!j->text)
		goto nomem;
	memcpy(j->text, text, len);
	j->text[len] = '\0';
	for (p = j->text, end = j->text + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *q, *r;
		unsigned long long start, size;

		if (!nl)
			nl = end;
		*nl = '\0';
		start = strtoull(p, &q, 16);
		size = strtoull(q, &r, 16);
		if (q != p && r != q && *r == ' ' && size) {
			if (f2t_vec_reserve(&j->v, &cap, j->n + 1, 256))
				goto nomem;
			j->v[j->n++] = (struct jsym){ start, size, r + 1 };
		}
		p = nl + 1;
	}
	f2t_sort(j->v, j->n, sizeof(*j->v), by_start);
	return j;
nomem:
	f2t_jitmap_free(j);
	errno = ENOMEM;
	return NULL;
}

void f2t_jitmap_free(struct f2t_jitmap *j)
{
	if (!j)
		return;
	free(j->v);
	free(j->text);
	free(j);
}

const char *f2t_jitmap_lookup(const struct f2t_jitmap *j, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = j ? j->n : 0;

	*off = 0;
	if (!hi || addr < j->v[0].start)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->v[mid].start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* Overlapping entries: the nearest start that still covers addr. */
	for (size_t i = lo + 1; i-- > 0;) {
		if (addr < j->v[i].start + j->v[i].size) {
			*off = addr - j->v[i].start;
			return j->v[i].name;
		}
		if (lo - i > 16)
			break;
	}
	return NULL;
}
