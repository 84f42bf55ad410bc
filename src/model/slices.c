// SPDX-License-Identifier: MIT
/*
 * tid -> depth (util/idmap.h).  Entries are never removed (a thread that
 * closed all its slices keeps a depth-0 entry), so the table stays bounded
 * by the threads seen.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/slices.h"
#include "util/idmap.h"

struct f2t_slices {
	struct f2t_idmap depth;		/* tid -> uint32_t */
	uint64_t unmatched;
	uint64_t open;
};

struct f2t_slices *f2t_slices_new(void)
{
	struct f2t_slices *s = calloc(1, sizeof(*s));

	if (!s || f2t_idmap_init(&s->depth, sizeof(uint32_t))) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void f2t_slices_free(struct f2t_slices *s)
{
	if (!s)
		return;
	f2t_idmap_fini(&s->depth);
	free(s);
}

int f2t_slices_begin(struct f2t_slices *s, int32_t tid)
{
	uint32_t *depth = f2t_idmap_get(&s->depth, tid, NULL);

	if (!depth)
		return -ENOMEM;
	if (*depth == UINT32_MAX)
		return -EOVERFLOW;
	(*depth)++;
	s->open++;
	return *depth > INT32_MAX ? INT32_MAX : (int)*depth;
}

bool f2t_slices_end(struct f2t_slices *s, int32_t tid)
{
	uint32_t *depth = f2t_idmap_find(&s->depth, tid);

	if (!depth || !*depth) {
		s->unmatched++;
		return false;
	}
	(*depth)--;
	s->open--;
	return true;
}

uint32_t f2t_slices_depth(const struct f2t_slices *s, int32_t tid)
{
	const uint32_t *depth = f2t_idmap_find(&s->depth, tid);

	return depth ? *depth : 0;
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
	for (size_t i = 0; i < s->depth.n; i++) {
		int64_t tid;
		const uint32_t *depth = f2t_idmap_at(&s->depth, i, &tid);
		int r;

		if (!*depth)
			continue;
		r = fn((int32_t)tid, *depth, ctx);
		if (r)
			return r;
	}
	return 0;
}
