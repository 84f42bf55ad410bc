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

struct module {
	char *name;		/* NULL: no mapping of it defined yet */
	size_t len;
	uint8_t *build_id;
	size_t build_id_len;
	bool written;
};

struct frame {
	uint64_t pc;
	uint32_t mapping;
};

struct callstack {
	uint32_t parent, frame;
};

struct fxt_prof {
	struct module *mods;		/* by number */
	size_t nmods;
	struct fxt_prof_mapping *maps;	/* by id - 1, and so on */
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
	for (size_t i = 0; i < p->nmods; i++) {
		free(p->mods[i].name);
		free(p->mods[i].build_id);
	}
	free(p->mods);
	free(p->maps);
	free(p->frames);
	free(p->stacks);
	f2t_idmap_fini(&p->mmaps);
	free(p);
}

/* Room for one more of @size in *@v.  Return: 0 or -ENOMEM. */
static int grow(void *v, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? *cap * 2 : 1024;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*(void **)v, c * size);
	if (!q)
		return -ENOMEM;
	*(void **)v = q;
	*cap = c;
	return 0;
}

/* Binary @m->module's name and build-id, the first time a mapping of it is defined. */
static int module(struct fxt_prof *p, const struct f2t_mapping_def *m)
{
	struct module *mod;

	if (m->module >= p->nmods) {
		size_t n = p->nmods ? p->nmods : 64;
		struct module *v;

		while (n <= m->module)
			n *= 2;
		v = realloc(p->mods, n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + p->nmods, 0, (n - p->nmods) * sizeof(*v));
		p->mods = v;
		p->nmods = n;
	}
	mod = &p->mods[m->module];
	if (mod->name)
		return 0;
	mod->name = malloc(m->path.len + 1);
	mod->build_id = m->build_id_len ? malloc(m->build_id_len) : NULL;
	if (!mod->name || (m->build_id_len && !mod->build_id))
		return -ENOMEM;
	memcpy(mod->name, m->path.s, m->path.len);
	mod->name[m->path.len] = '\0';
	mod->len = m->path.len;
	if (m->build_id_len)
		memcpy(mod->build_id, m->build_id, m->build_id_len);
	mod->build_id_len = m->build_id_len;
	return 0;
}

int fxt_prof_define(struct fxt_prof *p, const struct f2t_item *it)
{
	switch (it->kind) {
	case F2T_ITEM_MAPPING: {
		const struct f2t_mapping_def *m = it->def.mapping;

		if (grow(&p->maps, p->nmaps, &p->mapcap, sizeof(*p->maps)) || module(p, m))
			return -ENOMEM;
		p->maps[p->nmaps++] = (struct fxt_prof_mapping){ m->module, m->start, m->len,
								  m->vaddr };
		return 0;
	}
	case F2T_ITEM_FRAME:
		if (grow(&p->frames, p->nframes, &p->framecap, sizeof(*p->frames)))
			return -ENOMEM;
		p->frames[p->nframes++] = (struct frame){ it->def.frame->pc,
							  it->def.frame->mapping };
		return 0;
	case F2T_ITEM_CALLSTACK:
		if (grow(&p->stacks, p->nstacks, &p->stackcap, sizeof(*p->stacks)))
			return -ENOMEM;
		p->stacks[p->nstacks++] = (struct callstack){ it->def.callstack->parent,
							      it->def.callstack->frame };
		return 0;
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
	return &p->maps[id - 1];
}

int fxt_prof_first_module(struct fxt_prof *p, uint32_t module, const char **name, size_t *len,
			  const uint8_t **build_id, size_t *build_id_len)
{
	struct module *m = &p->mods[module];

	if (m->written)
		return 0;
	m->written = true;
	*name = m->name;
	*len = m->len;
	*build_id = m->build_id;
	*build_id_len = m->build_id_len;
	return 1;
}

int fxt_prof_first_mmap(struct fxt_prof *p, int32_t pid, uint32_t id)
{
	bool fresh;

	if (!f2t_idmap_get(&p->mmaps, (int64_t)((uint64_t)(uint32_t)pid << 32 | id), &fresh))
		return -ENOMEM;
	return fresh;
}
