// SPDX-License-Identifier: MIT
/*
 * Arrays (util/vec.h) indexed by the model's ids, a bit per binary number,
 * binaries' names and build-ids in a util/intern.h, and the (pid, mapping)
 * pairs written in a util/idmap.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt/fxt_prof.h"
#include "util/idmap.h"
#include "util/intern.h"
#include "util/vec.h"

/* A mapping, and its binary as a module record says it. */
struct mapping {
	struct fxt_prof_mapping m;
	int64_t name, build_id;		/* in strs; build_id -1: none */
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
	struct f2t_intern strs;		/* binaries' names and build-ids */
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
	free(p->written);
	free(p->maps);
	free(p->frames);
	free(p->stacks);
	f2t_intern_fini(&p->strs);
	f2t_idmap_fini(&p->mmaps);
	free(p);
}

/* Mapping @d kept, with what its module record would say.  Return: 0 or -ENOMEM. */
static int mapping(struct fxt_prof *p, const struct f2t_mapping_def *d)
{
	struct mapping *m = f2t_vec_push(&p->maps, &p->nmaps, &p->mapcap, 64);

	if (!m)
		return -ENOMEM;
	*m = (struct mapping){ .m = { d->module, d->start, d->len, d->vaddr },
			       .name = f2t_intern(&p->strs, d->path.s, d->path.len, NULL),
			       .build_id = d->build_id_len ? f2t_intern(&p->strs, d->build_id,
									d->build_id_len, NULL) : -1 };
	return m->name < 0 || m->build_id < -1 ? -ENOMEM : 0;
}

int fxt_prof_define(struct fxt_prof *p, const struct f2t_item *it)
{
	struct frame *f;
	struct callstack *c;

	switch (it->kind) {
	case F2T_ITEM_MAPPING:
		return mapping(p, it->def.mapping);
	case F2T_ITEM_FRAME:
		f = f2t_vec_push(&p->frames, &p->nframes, &p->framecap, 1024);
		if (f)
			*f = (struct frame){ it->def.frame->pc, it->def.frame->mapping };
		return f ? 0 : -ENOMEM;
	case F2T_ITEM_CALLSTACK:
		c = f2t_vec_push(&p->stacks, &p->nstacks, &p->stackcap, 1024);
		if (c)
			*c = (struct callstack){ it->def.callstack->parent,
						 it->def.callstack->frame };
		return c ? 0 : -ENOMEM;
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
	const struct mapping *m = &p->maps[id - 1];
	size_t byte = m->m.module / 8, n = p->nwritten;
	uint8_t bit = (uint8_t)(1u << (m->m.module % 8));

	if (byte >= n) {
		if (f2t_vec_reserve(&p->written, &p->nwritten, byte + 1, 64))
			return -ENOMEM;
		memset(p->written + n, 0, p->nwritten - n);
	}
	if (p->written[byte] & bit)
		return 0;
	p->written[byte] |= bit;
	*name = f2t_intern_key(&p->strs, (size_t)m->name, len);
	*build_id = NULL;
	*build_id_len = 0;
	if (m->build_id >= 0)
		*build_id = (const uint8_t *)f2t_intern_key(&p->strs, (size_t)m->build_id,
							    build_id_len);
	return 1;
}

int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint32_t id)
{
	bool fresh;

	if (!f2t_idmap_get(&p->mmaps, (int64_t)((uint64_t)(uint32_t)pid << 32 | id), &fresh))
		return -ENOMEM;
	return fresh;
}
