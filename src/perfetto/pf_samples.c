// SPDX-License-Identifier: MIT
/*
 * CPU samples as PerfSample packets, and off-CPU slices as TrackEvents, with
 * interned stacks (pf_samples.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/pf_fields.h"
#include "perfetto/pf_packets.h"
#include "perfetto/pf_samples.h"
#include "util/intern.h"
#include "util/vec.h"

/* Interned string tables: frames' and mappings', then the TrackEvents'. */
enum { I_NAME, I_PATH, I_BUILD_ID, I_EVENT, I_CATEGORY, I_ARG_NAME, I_ARG_STR, I_COUNT };

/* An off-CPU slice's arguments as its packet names them. */
struct arg_iids {
	int64_t name, str;		/* str 0: not an interned string */
};

/*
 * The model's definitions as kept here, by the model's id - 1, each with
 * its iid once a sample's packet interned it (0: not yet).  Iids are given
 * in the order samples and off-CPU slices first use them, so what no
 * packet names (a waker's stack) is never written.
 */
struct mapping {
	uint64_t start, end, iid;
	int64_t path, bid;		/* in kept; bid -1: none */
};

struct frame {
	uint64_t rel_pc, iid;
	uint32_t mapping;
	int64_t name;			/* in kept */
};

struct callstack {
	uint32_t parent, frame, depth;
	bool kernel;
	uint64_t iid;
};

struct pf_samples {
	struct f2t_sampling sampling;
	bool mono, started;
	uint64_t base;			/* PF_CLOCK_SEQ's 0 in MONOTONIC; 0: no such clock */
	struct f2t_intern in[I_COUNT];	/* iid: id + 1 */
	struct pb_buf interned;		/* InternedData of the packet being built */
	struct mapping *maps;
	struct frame *frames;
	struct callstack *stacks;
	size_t nmaps, mapcap, nframes, framecap, nstacks, stackcap;
	struct f2t_intern kept;		/* the definitions' strings */
	uint64_t map_iids, frame_iids, stack_iids;	/* iids given */
	uint64_t *ids;			/* a sample's frame iids, root first */
	size_t ids_cap;
	struct arg_iids args[F2T_ITEM_MAX_ARGS];
};

struct pf_samples *pf_samples_new(const struct f2t_sampling *sampling, bool mono)
{
	struct pf_samples *s = calloc(1, sizeof(*s));

	if (!s)
		goto nomem;
	s->sampling = *sampling;
	s->mono = mono;
	return s;
nomem:
	errno = ENOMEM;
	return NULL;
}

void pf_samples_free(struct pf_samples *s)
{
	if (!s)
		return;
	for (int i = 0; i < I_COUNT; i++)
		f2t_intern_fini(&s->in[i]);
	pb_buf_free(&s->interned);
	free(s->maps);
	free(s->frames);
	free(s->stacks);
	f2t_intern_fini(&s->kept);
	free(s->ids);
	free(s);
}

/* An InternedString in InternedData field @field. */
static void interned_string(struct pb_buf *b, uint32_t field, int64_t iid, const void *p,
			    size_t len)
{
	size_t e = pb_open(b, field);

	pb_uint(b, PF_ISTR_IID, (uint64_t)iid);
	pb_bytes(b, PF_ISTR_STR, p, len);
	pb_close(b, e);
}

/* The iid of string @p in table @which, interned in the packet when new. */
static int64_t string_iid(struct pf_samples *s, int which, uint32_t field, const void *p,
			  size_t len)
{
	bool fresh;
	int64_t id = f2t_intern(&s->in[which], p, len, &fresh);

	if (id < 0)
		return id;
	if (fresh)
		interned_string(&s->interned, field, id + 1, p, len);
	return id + 1;
}

/* A string of a definition kept.  Return: its id in kept, or -ENOMEM. */
static int64_t keep(struct pf_samples *s, const void *p, size_t len)
{
	return f2t_intern(&s->kept, p, len, NULL);
}

/* A string kept. */
static const char *kept(const struct pf_samples *s, int64_t id, size_t *len)
{
	return f2t_intern_key(&s->kept, (size_t)id, len);
}

/* Keeps a definition of the model's until a sample uses it.  Return: 0 or -ENOMEM. */
static int define(struct pf_samples *s, const struct f2t_item *it)
{
	const struct f2t_mapping_def *m;
	struct mapping *km;
	struct frame *kf;
	struct callstack *kc;

	switch (it->kind) {
	case F2T_ITEM_MAPPING:
		m = it->def.mapping;
		km = f2t_vec_push(&s->maps, &s->nmaps, &s->mapcap, 64);
		if (!km)
			return -ENOMEM;
		*km = (struct mapping){ .start = m->start, .end = m->start + m->len,
					.path = keep(s, m->path.s, m->path.len),
					.bid = m->build_id_len ? keep(s, m->build_id,
								      m->build_id_len) : -1 };
		return km->path < 0 || km->bid < -1 ? -ENOMEM : 0;
	case F2T_ITEM_FRAME:
		kf = f2t_vec_push(&s->frames, &s->nframes, &s->framecap, 1024);
		if (!kf)
			return -ENOMEM;
		*kf = (struct frame){ .rel_pc = it->def.frame->rel_pc,
				      .mapping = it->def.frame->mapping,
				      .name = keep(s, it->def.frame->name.s, it->def.frame->name.len) };
		return kf->name < 0 ? -ENOMEM : 0;
	case F2T_ITEM_CALLSTACK:
		kc = f2t_vec_push(&s->stacks, &s->nstacks, &s->stackcap, 1024);
		if (!kc)
			return -ENOMEM;
		*kc = (struct callstack){ it->def.callstack->parent, it->def.callstack->frame,
					  it->def.callstack->depth, it->def.callstack->kernel, 0 };
		return 0;
	default:
		return 0;
	}
}

/* The iid of mapping @id, interned in the packet (with its strings) when new. */
static int64_t mapping_iid(struct pf_samples *s, uint32_t id)
{
	struct mapping *m = &s->maps[id - 1];
	int64_t path, bid = 0;
	const char *str;
	size_t len, e;

	if (m->iid)
		return (int64_t)m->iid;
	str = kept(s, m->path, &len);
	path = string_iid(s, I_PATH, PF_INTERNED_MAPPING_PATHS, str, len);
	if (path > 0 && m->bid >= 0) {
		str = kept(s, m->bid, &len);
		bid = string_iid(s, I_BUILD_ID, PF_INTERNED_BUILD_IDS, str, len);
	}
	if (path < 0 || bid < 0)
		return -ENOMEM;
	m->iid = ++s->map_iids;
	e = pb_open(&s->interned, PF_INTERNED_MAPPINGS);
	pb_uint(&s->interned, PF_MAP_IID, m->iid);
	if (bid)
		pb_uint(&s->interned, PF_MAP_BUILD_ID, (uint64_t)bid);
	pb_uint(&s->interned, PF_MAP_START, m->start);
	pb_uint(&s->interned, PF_MAP_END, m->end);
	pb_uint(&s->interned, PF_MAP_PATH_STRING_IDS, (uint64_t)path);
	pb_close(&s->interned, e);
	return (int64_t)m->iid;
}

/*
 * The iid of frame @id, interned in the packet when new.  A frame outside
 * any mapping (JIT code, unknown) has no mapping: trace_processor keeps it
 * by name.
 */
static int64_t frame_iid(struct pf_samples *s, uint32_t id)
{
	struct frame *f = &s->frames[id - 1];
	int64_t map = 0, name;
	const char *str;
	size_t len, e;

	if (f->iid)
		return (int64_t)f->iid;
	if (f->mapping)
		map = mapping_iid(s, f->mapping);
	if (map < 0)
		return map;
	str = kept(s, f->name, &len);
	name = string_iid(s, I_NAME, PF_INTERNED_FUNCTION_NAMES, str, len);
	if (name < 0)
		return name;
	f->iid = ++s->frame_iids;
	e = pb_open(&s->interned, PF_INTERNED_FRAMES);
	pb_uint(&s->interned, PF_FRAME_IID, f->iid);
	pb_uint(&s->interned, PF_FRAME_FUNCTION_NAME_ID, (uint64_t)name);
	if (map) {
		pb_uint(&s->interned, PF_FRAME_MAPPING_ID, (uint64_t)map);
		pb_uint(&s->interned, PF_FRAME_REL_PC, f->rel_pc);
	}
	pb_close(&s->interned, e);
	return (int64_t)f->iid;
}

/* The iid of callstack @id, interned when new as its frames' iids, root first. */
static int64_t callstack_iid(struct pf_samples *s, uint32_t id)
{
	struct callstack *c = &s->stacks[id - 1];
	size_t n = c->depth, e;

	if (c->iid)
		return (int64_t)c->iid;
	if (f2t_vec_reserve(&s->ids, &s->ids_cap, n, 64))
		return -ENOMEM;
	for (uint32_t at = id; at; at = s->stacks[at - 1].parent)
		s->ids[--n] = s->stacks[at - 1].frame;
	/* Frames are interned root first, as they are listed. */
	for (size_t i = 0; i < c->depth; i++) {
		int64_t fr = frame_iid(s, (uint32_t)s->ids[i]);

		if (fr < 0)
			return fr;
		s->ids[i] = (uint64_t)fr;
	}
	c->iid = ++s->stack_iids;
	e = pb_open(&s->interned, PF_INTERNED_CALLSTACKS);
	pb_uint(&s->interned, PF_CALLSTACK_IID, c->iid);
	/* Not packed: Perfetto declares frame_ids without [packed = true]. */
	for (size_t i = 0; i < c->depth; i++)
		pb_uint(&s->interned, PF_CALLSTACK_FRAME_IDS, s->ids[i]);
	pb_close(&s->interned, e);
	return (int64_t)c->iid;
}

/* The sequence's first packets, before its first sample. */
static void start(struct pf_samples *s, struct pb_buf *b)
{
	if (s->started)
		return;
	s->started = true;
	pf_seq_defaults(b, PF_SEQ_SAMPLES, !s->mono ? 0 : s->base ? PF_CLOCK_SEQ :
			PF_CLOCK_MONOTONIC, &s->sampling);
	if (s->base)
		pf_seq_clock(b, PF_SEQ_SAMPLES, s->base);
}

/*
 * A packet of the sequence at MONOTONIC @ts: on its own clock, or on
 * MONOTONIC said in the packet when earlier than that clock's 0.
 */
static size_t packet_flags(struct pf_samples *s, struct pb_buf *b, uint64_t ts, uint32_t flags)
{
	bool before = s->base && ts < s->base;

	start(s, b);
	return pf_packet_open(b, &(struct pf_head){
		.has_ts = true, .ts = s->base && !before ? ts - s->base : ts, .seq = PF_SEQ_SAMPLES,
		.flags = flags, .clock = before ? PF_CLOCK_MONOTONIC : 0 });
}

static size_t packet(struct pf_samples *s, struct pb_buf *b, uint64_t ts)
{
	return packet_flags(s, b, ts, PF_SEQ_NEEDS_INCREMENTAL_STATE);
}

/* One CPU sample, with what its packet is the first to use interned in it. */
static int sample(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it)
{
	const struct f2t_event *ev = it->ev;
	uint32_t cs = it->stack.callstack;
	int64_t iid;
	size_t pkt, ps;

	s->interned.len = 0;
	iid = cs ? callstack_iid(s, cs) : 0;
	if (iid < 0 || s->interned.err)
		return iid < 0 ? (int)iid : s->interned.err;
	pkt = packet(s, b, ev->ts);
	if (s->interned.len)
		pb_bytes(b, PF_PKT_INTERNED_DATA, s->interned.p, s->interned.len);
	ps = pb_open(b, PF_PKT_PERF_SAMPLE);
	pb_uint(b, PF_PS_CPU, ev->cpu);
	pb_uint(b, PF_PS_PID, (uint32_t)it->track.pid);
	pb_uint(b, PF_PS_TID, (uint32_t)ev->pid);
	if (cs) {
		pb_uint(b, PF_PS_CALLSTACK_IID, (uint64_t)iid);
		pb_uint(b, PF_PS_CPU_MODE, s->stacks[cs - 1].kernel ? PF_MODE_KERNEL : PF_MODE_USER);
	}
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
}

/*
 * The iids an off-CPU slice's packet names (its callstack, name, category,
 * arguments' names and string values), interned in s->interned when new.
 * Return: the callstack's iid (0: none) or -ENOMEM.
 */
static int64_t offcpu_iids(struct pf_samples *s, const struct f2t_item *it, int64_t *name,
			   int64_t *cat)
{
	int64_t cs = it->stack.callstack ? callstack_iid(s, it->stack.callstack) : 0;

	*name = string_iid(s, I_EVENT, PF_INTERNED_EVENT_NAMES, it->name.s, it->name.len);
	*cat = string_iid(s, I_CATEGORY, PF_INTERNED_EVENT_CATEGORIES, it->category.s,
			  it->category.len);
	if (cs < 0 || *name < 0 || *cat < 0)
		return -ENOMEM;
	for (unsigned int i = 0; i < it->nargs; i++) {
		const struct f2t_arg *a = &it->args[i];
		struct arg_iids *ai = &s->args[i];

		if (a->derived)
			continue;
		ai->name = string_iid(s, I_ARG_NAME, PF_INTERNED_DEBUG_ANNOTATION_NAMES, a->name,
				      strlen(a->name));
		ai->str = a->type == F2T_ARG_STR && !a->unique && a->str.s ?
			string_iid(s, I_ARG_STR, PF_INTERNED_DEBUG_ANNOTATION_STRINGS, a->str.s,
				   a->str.len) : 0;
		if (ai->name < 0 || ai->str < 0)
			return -ENOMEM;
	}
	return s->interned.err ? s->interned.err : cs;
}

int pf_samples_offcpu(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it,
		      uint64_t track)
{
	int64_t name, cat, cs;
	size_t pkt, te;

	s->interned.len = 0;
	cs = offcpu_iids(s, it, &name, &cat);
	if (cs < 0)
		return (int)cs;
	/*
	 * No SEQ_NEEDS_INCREMENTAL_STATE: it only lets a reader skip packets of
	 * a sequence whose state was lost, and this one's is set by its first
	 * packet; two bytes of the episode's 64.
	 */
	pkt = packet_flags(s, b, it->ts, 0);
	if (s->interned.len)
		pb_bytes(b, PF_PKT_INTERNED_DATA, s->interned.p, s->interned.len);
	te = pb_open(b, PF_PKT_TRACK_EVENT);
	pb_uint(b, PF_TE_TYPE, PF_TE_SLICE_BEGIN);
	pb_uint(b, PF_TE_TRACK_UUID, track);
	pb_uint(b, PF_TE_CATEGORY_IIDS, (uint64_t)cat);
	pb_uint(b, PF_TE_NAME_IID, (uint64_t)name);
	if (cs)
		pb_uint(b, PF_TE_CALLSTACK_IID, (uint64_t)cs);
	for (unsigned int i = 0; i < it->nargs; i++)
		if (!it->args[i].derived)
			pf_annotation(b, &it->args[i], (uint64_t)s->args[i].name,
				      (uint64_t)s->args[i].str);
	pb_close(b, te);
	pb_close(b, pkt);
	pkt = packet_flags(s, b, it->end_ts, 0);
	te = pb_open(b, PF_PKT_TRACK_EVENT);
	pb_uint(b, PF_TE_TYPE, PF_TE_SLICE_END);
	pb_uint(b, PF_TE_TRACK_UUID, track);
	pb_close(b, te);
	pb_close(b, pkt);
	return b->err;
}

void pf_samples_clock_base(struct pf_samples *s, uint64_t base)
{
	if (s->mono)
		s->base = base;
}

int pf_samples_item(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it)
{
	return it->kind == F2T_ITEM_SAMPLE ? sample(s, b, it) : define(s, it);
}

int pf_samples_lost(struct pf_samples *s, struct pb_buf *b, uint64_t ts, uint64_t count)
{
	size_t pkt = packet(s, b, ts), ps = pb_open(b, PF_PKT_PERF_SAMPLE);

	pb_uint(b, PF_PS_KERNEL_RECORDS_LOST, count);
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
}
