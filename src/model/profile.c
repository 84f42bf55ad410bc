// SPDX-License-Identifier: MIT
/*
 * The profile's tables: mappings and frames in arrays (util/vec.h) indexed
 * by id - 1, found by util/hash.h; callstacks in a util/idmap.h keyed by
 * (parent, frame), its n-th entry callstack n + 1; frames' names and
 * modules in one util/intern.h.  A frame is found by its address, its binary's mapping and, where
 * the address is a process's own (user code, or outside any binary), the
 * process: so the mapping is looked up only for a new frame.
 *
 * One address can have two names: the symbolizer names a return address
 * by the call before it, the sampled address by itself, and these can be
 * two functions.  The frame keeps the first name (Perfetto's frames are
 * addresses); the stack tree names each stack's frames as they came.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "model/stacks.h"
#include "util/hash.h"
#include "util/idmap.h"
#include "util/intern.h"
#include "util/vec.h"

/* What tells one mapping from another: the kernel's are every process's (pid -1). */
struct map_key {
	uint64_t start;
	const struct f2t_module *mod;
	int32_t pid;
};

struct frame {
	uint64_t pc;
	struct map_key map;	/* the key's: mod NULL for none, pid the process then */
	uint32_t mapping;
	uint32_t name, module;		/* in strs; module: the stack tree's category */
	/* What the name was made of (f2t_frame_name()): a frame met with others is renamed. */
	const char *func, *modname;
	uint64_t offset;
};

struct callstack {
	uint32_t parent, frame, node;	/* node 0: not made yet */
};

struct f2t_profile {
	struct map_key *maps;
	size_t nmaps, mapcap;
	struct f2t_hash map_index;	/* -> mapping id */
	struct frame *frames;
	size_t nframes, framecap;
	struct f2t_hash frame_index;	/* -> frame id */
	struct f2t_idmap callstacks;
	struct f2t_stacks *tree;
	struct f2t_intern strs;
	uint32_t *chain;		/* callstacks waiting for their node, leaf first */
	size_t chaincap;
	char name[F2T_FRAME_NAME_MAX + 1];	/* a frame's name being made */
};

struct f2t_profile *f2t_profile_new(void)
{
	struct f2t_profile *p = calloc(1, sizeof(*p));

	if (!p)
		goto nomem;
	if (f2t_hash_init(&p->map_index, 64) || f2t_hash_init(&p->frame_index, 1024) ||
	    f2t_idmap_init(&p->callstacks, sizeof(struct callstack))) {
		f2t_profile_free(p);
		goto nomem;
	}
	p->tree = f2t_stacks_new();
	if (!p->tree) {
		f2t_profile_free(p);
		goto nomem;
	}
	return p;
nomem:
	errno = ENOMEM;
	return NULL;
}

void f2t_profile_free(struct f2t_profile *p)
{
	if (!p)
		return;
	free(p->maps);
	f2t_hash_fini(&p->map_index);
	free(p->frames);
	f2t_hash_fini(&p->frame_index);
	f2t_idmap_fini(&p->callstacks);
	f2t_stacks_free(p->tree);
	f2t_intern_fini(&p->strs);
	free(p->chain);
	free(p);
}

/* String @id of the profile's. */
static struct f2t_str str(const struct f2t_profile *p, uint32_t id)
{
	struct f2t_str s;

	s.s = f2t_intern_key(&p->strs, id, &s.len);
	return s;
}

/* A frame's binary as outputs name it (a mapping's path, the stack tree's category). */
static const char *module_of(const struct f2t_frame *f)
{
	return f->module ? f->module : "[unknown]";
}

struct map_lookup {
	const struct map_key *maps, *want;
};

static bool same_key(const struct map_key *a, const struct map_key *b)
{
	return a->start == b->start && a->mod == b->mod && a->pid == b->pid;
}

static bool same_map(uintptr_t val, const void *key)
{
	const struct map_lookup *l = key;

	return same_key(&l->maps[val - 1], l->want);
}

static uint64_t map_hash(const struct map_key *k)
{
	return f2t_hash_u64(k->start ^ f2t_hash_u64((uint64_t)(uint32_t)k->pid << 32 ^
						    (uint64_t)(uintptr_t)k->mod));
}

/* The mapping of frame @f (key @k), defined when new.  Return: its id or a negative errno. */
static int64_t mapping(struct f2t_profile *p, const struct f2t_frame *f, const struct map_key *k,
		       struct f2t_item *def, f2t_item_fn emit, void *ctx)
{
	struct map_lookup l = { p->maps, k };
	uint64_t h = map_hash(k);
	struct f2t_hslot *s = f2t_hash_slot(&p->map_index, h, same_map, &l);
	struct f2t_mapping_def m;
	int ret;

	if (s->val)
		return (int64_t)s->val;
	if (f2t_vec_reserve(&p->maps, &p->mapcap, p->nmaps + 1, 64) ||
	    f2t_hash_reserve(&p->map_index))
		return -ENOMEM;
	p->maps[p->nmaps++] = *k;
	l.maps = p->maps;
	f2t_hash_put(&p->map_index, f2t_hash_slot(&p->map_index, h, same_map, &l), h, p->nmaps);
	m = (struct f2t_mapping_def){
		.id = (uint32_t)p->nmaps, .module = f->mod_id,
		.path = { module_of(f), strlen(module_of(f)) },
		.build_id = f->build_id, .build_id_len = f->build_id_len,
		.start = f->map_start, .len = f->map_len, .vaddr = f->map_vaddr,
	};
	def->kind = F2T_ITEM_MAPPING;
	def->def.mapping = &m;
	ret = emit(ctx, def);
	return ret ? ret : (int64_t)m.id;
}

struct frame_lookup {
	const struct frame *frames;
	uint64_t pc;
	const struct map_key *map;
};

static bool same_frame(uintptr_t val, const void *key)
{
	const struct frame_lookup *l = key;
	const struct frame *f = &l->frames[val - 1];

	return f->pc == l->pc && same_key(&f->map, l->map);
}

/* Is @f named as frame @fr was first? */
static bool named_alike(const struct frame *fr, const struct f2t_frame *f)
{
	return fr->func == f->func && fr->modname == f->module && fr->offset == f->offset;
}

/*
 * The frame of @f in process @pid, defined (and its mapping) when new.
 * Return: its id or a negative errno.
 */
static int64_t frame(struct f2t_profile *p, int32_t pid, const struct f2t_frame *f,
		     struct f2t_item *def, f2t_item_fn emit, void *ctx)
{
	/* JIT and unknown code, and the kernel's outside any module, are the process's own. */
	struct map_key k = { f->mod ? f->map_start : 0, f->mod, f->mod && f->kernel ? -1 : pid };
	struct frame_lookup l = { p->frames, f->ip, &k };
	uint64_t h = f2t_hash_u64(f->ip ^ map_hash(&k));
	struct f2t_hslot *s = f2t_hash_slot(&p->frame_index, h, same_frame, &l);
	const char *mod = module_of(f);
	struct frame *fr;
	struct f2t_frame_def d;
	int64_t map = 0, name, module;
	int ret;

	if (s->val)
		return (int64_t)s->val;
	if (f->mod) {
		map = mapping(p, f, &k, def, emit, ctx);
		if (map < 0)
			return map;
	}
	name = f2t_intern(&p->strs, p->name, f2t_frame_name(f, p->name, sizeof(p->name)), NULL);
	module = f2t_intern(&p->strs, mod, strlen(mod), NULL);
	if (name < 0 || module < 0 || name > UINT32_MAX || module > UINT32_MAX ||
	    f2t_vec_reserve(&p->frames, &p->framecap, p->nframes + 1, 1024) ||
	    f2t_hash_reserve(&p->frame_index))
		return -ENOMEM;
	fr = &p->frames[p->nframes++];
	*fr = (struct frame){ .pc = f->ip, .map = k, .mapping = (uint32_t)map,
			      .name = (uint32_t)name, .module = (uint32_t)module, .func = f->func,
			      .modname = f->module, .offset = f->offset };
	l.frames = p->frames;
	f2t_hash_put(&p->frame_index, f2t_hash_slot(&p->frame_index, h, same_frame, &l), h,
		     p->nframes);
	d = (struct f2t_frame_def){
		.id = (uint32_t)p->nframes, .mapping = fr->mapping, .pc = f->ip,
		.rel_pc = map ? f->ip - f->map_start : 0,
		.name = str(p, fr->name),
	};
	def->kind = F2T_ITEM_FRAME;
	def->def.frame = &d;
	ret = emit(ctx, def);
	return ret ? ret : (int64_t)d.id;
}

static struct callstack *callstack_at(const struct f2t_profile *p, uint32_t id)
{
	return f2t_idmap_at(&p->callstacks, id - 1, NULL);
}

/* The stack tree's node (@parent, @name, @module), defined when new.  Return: its id or -errno. */
static int64_t tree_node(struct f2t_profile *p, uint32_t parent, const char *name, size_t nlen,
			 const char *module, size_t mlen, struct f2t_item *def, f2t_item_fn emit,
			 void *ctx)
{
	uint32_t made = f2t_stacks_count(p->tree);
	int64_t id = f2t_stacks_node(p->tree, parent, name, nlen, module, mlen);
	struct f2t_stack_node_def d = { .parent = parent, .name = { name, nlen },
					.module = { module, mlen } };
	int ret;

	if (id <= (int64_t)made)
		return id;
	d.id = (uint32_t)id;
	def->kind = F2T_ITEM_STACK_NODE;
	def->def.node = &d;
	ret = emit(ctx, def);
	return ret ? ret : id;
}

/* Callstack @id's node, made (and its parents') when not yet.  Return: it or a negative errno. */
static int64_t node(struct f2t_profile *p, uint32_t id, struct f2t_item *def, f2t_item_fn emit,
		    void *ctx)
{
	size_t n = 0;
	int64_t parent = 0;

	/* The stack tree is made root first, as a sample's frames are met outermost first. */
	for (uint32_t c = id; c && !callstack_at(p, c)->node; c = callstack_at(p, c)->parent) {
		if (f2t_vec_reserve(&p->chain, &p->chaincap, n + 1, 64))
			return -ENOMEM;
		p->chain[n++] = c;
	}
	if (!n)
		return callstack_at(p, id)->node;
	if (callstack_at(p, p->chain[n - 1])->parent)
		parent = callstack_at(p, callstack_at(p, p->chain[n - 1])->parent)->node;
	while (n--) {
		const struct frame *f = &p->frames[callstack_at(p, p->chain[n])->frame - 1];
		struct f2t_str name = str(p, f->name), mod = str(p, f->module);

		parent = tree_node(p, (uint32_t)parent, name.s, name.len, mod.s, mod.len, def, emit,
				   ctx);
		if (parent < 0)
			return parent;
		callstack_at(p, p->chain[n])->node = (uint32_t)parent;
	}
	return parent;
}

/*
 * The node of a stack whose frames from @k (root first: @frames[@k - 1]
 * down to the innermost) include one named otherwise than its frame,
 * under @parent: made from the names they came with.
 */
static int64_t renamed(struct f2t_profile *p, int64_t parent, const struct f2t_frame *frames,
		       uint32_t k, struct f2t_item *def, f2t_item_fn emit, void *ctx)
{
	while (parent >= 0 && k-- > 0) {
		const char *mod = module_of(&frames[k]);
		size_t len = f2t_frame_name(&frames[k], p->name, sizeof(p->name));

		parent = tree_node(p, (uint32_t)parent, p->name, len, mod, strlen(mod), def, emit,
				   ctx);
	}
	return parent;
}

int f2t_profile_stack(struct f2t_profile *p, int32_t pid, const struct f2t_frame *frames,
		      uint32_t n, bool named, const struct f2t_item *use, f2t_item_fn emit,
		      void *ctx, struct f2t_stack_ref *ref)
{
	struct f2t_item def = { .ts = use->ts, .track = use->track, .ev = use->ev };
	uint32_t id = 0, depth = 0, alike = 0, renamed_at = n;
	int64_t nd;

	/* Root first: the outermost frame is the last one. */
	for (uint32_t i = n; i-- > 0;) {
		int64_t fr = frame(p, pid, &frames[i], &def, emit, ctx);
		struct callstack *c;
		bool fresh;

		if (fr < 0)
			return (int)fr;
		if (renamed_at == n && !named_alike(&p->frames[fr - 1], &frames[i]))
			renamed_at = i;
		c = f2t_idmap_get(&p->callstacks, (int64_t)((uint64_t)id << 32 | (uint64_t)fr),
				  &fresh);
		if (!c)
			return -ENOMEM;
		depth++;
		if (fresh) {
			struct f2t_callstack_def d = {
				.id = (uint32_t)p->callstacks.n, .parent = id,
				.frame = (uint32_t)fr, .depth = depth, .kernel = frames[i].kernel,
			};
			int ret;

			*c = (struct callstack){ id, (uint32_t)fr, 0 };
			def.kind = F2T_ITEM_CALLSTACK;
			def.def.callstack = &d;
			ret = emit(ctx, &def);
			if (ret)
				return ret;
		}
		id = (uint32_t)(((unsigned char *)c - p->callstacks.e) / p->callstacks.esize) + 1;
		if (renamed_at == n)
			alike = id;
	}
	*ref = (struct f2t_stack_ref){ id, 0 };
	if (!named)
		return 0;
	if (!n)
		nd = tree_node(p, 0, "[unknown]", 9, "[unknown]", 9, &def, emit, ctx);
	else if (renamed_at == n)
		nd = node(p, id, &def, emit, ctx);
	else	/* the frames above the first renamed one are their callstack's */
		nd = renamed(p, alike ? node(p, alike, &def, emit, ctx) : 0, frames,
			     renamed_at + 1, &def, emit, ctx);
	if (nd < 0)
		return (int)nd;
	ref->node = (uint32_t)nd;
	return 0;
}

uint32_t f2t_profile_nodes(const struct f2t_profile *p)
{
	return f2t_stacks_count(p->tree);
}
