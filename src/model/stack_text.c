// SPDX-License-Identifier: MIT
/*
 * Callstacks as text (stack_text.h): frames' names in one util/intern.h,
 * frames and callstacks in arrays by id - 1, as the profile numbers them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/stack_text.h"
#include "util/intern.h"
#include "util/vec.h"

struct callstack {
	uint32_t parent, frame;
};

struct f2t_stack_text {
	struct f2t_intern names;
	uint32_t *frames;		/* name ids, by frame id - 1 */
	size_t nframes, framecap;
	struct callstack *stacks;
	size_t nstacks, stackcap;
	char buf[F2T_STACK_TEXT_MAX + 1];
};

struct f2t_stack_text *f2t_stack_text_new(void)
{
	struct f2t_stack_text *t = calloc(1, sizeof(*t));

	if (!t)
		errno = ENOMEM;
	return t;
}

void f2t_stack_text_free(struct f2t_stack_text *t)
{
	if (!t)
		return;
	f2t_intern_fini(&t->names);
	free(t->frames);
	free(t->stacks);
	free(t);
}

int f2t_stack_text_define(struct f2t_stack_text *t, const struct f2t_item *it)
{
	uint32_t *f;
	struct callstack *c;
	int64_t name;

	switch (it->kind) {
	case F2T_ITEM_FRAME:
		name = f2t_intern(&t->names, it->def.frame->name.s, it->def.frame->name.len, NULL);
		f = name < 0 || name > UINT32_MAX ? NULL :
			f2t_vec_push(&t->frames, &t->nframes, &t->framecap, 1024);
		if (!f)
			return -ENOMEM;
		*f = (uint32_t)name;
		return 0;
	case F2T_ITEM_CALLSTACK:
		c = f2t_vec_push(&t->stacks, &t->nstacks, &t->stackcap, 1024);
		if (!c)
			return -ENOMEM;
		/* A parent is an earlier callstack: the walk up ends. */
		*c = (struct callstack){ it->def.callstack->parent < it->def.callstack->id ?
					 it->def.callstack->parent : 0, it->def.callstack->frame };
		return 0;
	default:
		return 0;
	}
}

struct f2t_str f2t_stack_text(struct f2t_stack_text *t, uint32_t id)
{
	size_t at = 0;

	for (; id && id <= t->nstacks; id = t->stacks[id - 1].parent) {
		uint32_t fr = t->stacks[id - 1].frame;
		const char *name;
		size_t len;

		if (!fr || fr > t->nframes)
			break;
		name = f2t_intern_key(&t->names, t->frames[fr - 1], &len);
		if (at + !!at + len > F2T_STACK_TEXT_MAX)
			break;
		if (at)
			t->buf[at++] = '\n';
		memcpy(t->buf + at, name, len);
		at += len;
	}
	t->buf[at] = '\0';
	return (struct f2t_str){ t->buf, at };
}
