// SPDX-License-Identifier: MIT
/*
 * Arrays indexed by the model's ids (binaries by their number), and the
 * (pid, mapping) pairs written in a util/idmap.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt/fxt_prof.h"
#include "util/idmap.h"

/* A mapping, and its binary as a module record says it. */
struct mapping {
	struct fxt_prof_mapping m;
	char *name;
	size_t len;
	uint8_t *build_id;
	size_t build_id_len;
};

struct frame {
	uint64_t pc;
	uint32_t mapping;
};

struct callstack {
	uint32_t parent, frame;
};

struct fxt_prof {
	uint8_t *written;		/* a bit per binary number: its module record */
	size_t nwritten;		/* bytes */
	struct mapping *maps;		/* by id - 1, and so on */
	size_t nmaps, mapcap;
	struct frame *frames;
	size_t nframes, framecap;
	struct callstack *stacks;
	size_t nstacks, stackcap;
	struct f2t_idmap mmaps;		/* (uint32_t)pid << 32 | mapping, no entry */
};

struct fxt_prof *fxt_prof_new(void)
{
	struct fxt_prof *p = calloc(1, sizeof(*p));

	if (p && f2t_idmap_init(&p->mmaps, 1)) {
		free(p);
		p = NULL;
	}
	return p;
}

void fxt_prof_free(struct fxt_prof *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nmaps; i++) {
		free(p->maps[i].name);
		free(p->maps[i].build_id);
	}
	free(p->written);
	free(p->maps);
	free(p->frames);
	free(p->stacks);
	f2t_idmap_fini(&p->mmaps);
	free(p);
}

/* Array @v with room for one more of @size after @n: @v itself, moved, or NULL (ENOMEM). */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? *cap * 2 : 1024;

	if (n < *cap)
		return v;
	v = realloc(v, c * size);
	if (v)
		*cap = c;
	return v;
}

/* Mapping @m, and what its module record would say, copied into @b.  Return: 0 or -ENOMEM. */
static int mapping(struct mapping *b, const struct f2t_mapping_def *m)
{
	*b = (struct mapping){ .m = { m->module, m->start, m->len, m->vaddr },
			       .len = m->path.len, .build_id_len = m->build_id_len };
	b->name = malloc(m->path.len + 1);
	b->build_id = m->build_id_len ? malloc(m->build_id_len) : NULL;
	if (!b->name || (m->build_id_len && !b->build_id))
		return -ENOMEM;
	memcpy(b->name, m->path.s, m->path.len);
	b->name[m->path.len] = '\0';
	if (m->build_id_len)
		memcpy(b->build_id, m->build_id, m->build_id_len);
	return 0;
}

int fxt_prof_define(struct fxt_prof *p, const struct f2t_item *it)
{
	switch (it->kind) {
	case F2T_ITEM_MAPPING: {
		struct mapping *maps = grow(p->maps, p->nmaps, &p->mapcap, sizeof(*maps));

		if (!maps)
			return -ENOMEM;
		p->maps = maps;
		return mapping(&p->maps[p->nmaps++], it->def.mapping);
	}
	case F2T_ITEM_FRAME: {
		struct frame *frames = grow(p->frames, p->nframes, &p->framecap, sizeof(*frames));

		if (!frames)
			return -ENOMEM;
		p->frames = frames;
		p->frames[p->nframes++] = (struct frame){ it->def.frame->pc,
							  it->def.frame->mapping };
		return 0;
	}
	case F2T_ITEM_CALLSTACK: {
		struct callstack *stacks = grow(p->stacks, p->nstacks, &p->stackcap,
						sizeof(*stacks));

		if (!stacks)
			return -ENOMEM;
		p->stacks = stacks;
		p->stacks[p->nstacks++] = (struct callstack){ it->def.callstack->parent,
							      it->def.callstack->frame };
		return 0;
	}
	default:
		return 0;
	}
}

size_t fxt_prof_stack(const struct fxt_prof *p, uint32_t id, uint64_t *pcs, uint32_t *maps,
		      size_t max)
{
	size_t n = 0;

	for (; id && n < max; id = p->stacks[id - 1].parent, n++) {
		const struct frame *f = &p->frames[p->stacks[id - 1].frame - 1];

		pcs[n] = f->pc;
		maps[n] = f->mapping;
	}
	return n;
}

const struct fxt_prof_mapping *fxt_prof_mapping(const struct fxt_prof *p, uint32_t id)
{
	return &p->maps[id - 1].m;
}

int fxt_prof_first_module(struct fxt_prof *p, uint32_t id, const char **name, size_t *len,
			  const uint8_t **build_id, size_t *build_id_len)
{
	const struct mapping *b = &p->maps[id - 1];
	uint32_t mod = b->m.module;
	size_t byte = mod / 8;

	if (byte >= p->nwritten) {
		size_t n = p->nwritten ? p->nwritten : 64;
		uint8_t *v;

		while (n <= byte)
			n *= 2;
		v = realloc(p->written, n);
		if (!v)
			return -ENOMEM;
		memset(v + p->nwritten, 0, n - p->nwritten);
		p->written = v;
		p->nwritten = n;
	}
	if (p->written[byte] & (1u << (mod % 8)))
		return 0;
	p->written[byte] |= (uint8_t)(1u << (mod % 8));
	*name = b->name;
	*len = b->len;
	*build_id = b->build_id;
	*build_id_len = b->build_id_len;
	return 1;
}

int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint32_t id)
{
	bool fresh;

	if (!f2t_idmap_get(&p->mmaps, (int64_t)((uint64_t)(uint32_t)pid << 32 | id), &fresh))
		return -ENOMEM;
	return fresh;
}
