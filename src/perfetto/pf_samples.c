// SPDX-License-Identifier: MIT
/* CPU samples as PerfSample packets with interned stacks (pf_samples.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/pf_fields.h"
#include "perfetto/pf_packets.h"
#include "perfetto/pf_samples.h"
#include "util/hash.h"

/*
 * Interning ids for byte strings: iid 1, 2, ... in order of first sight.
 * Keys are kept end to end in one buffer; ends holds where key i + 1 ends.
 */
struct intern {
	struct f2t_hash index;	/* -> iid */
	struct pb_buf keys;
	struct pb_buf ends;	/* size_t each */
	size_t n;
};

static size_t key_end(const struct intern *in, size_t i)
{
	size_t end;

	memcpy(&end, in->ends.p + i * sizeof(end), sizeof(end));
	return end;
}

struct lookup {
	const struct intern *in;
	const void *key;
	size_t len;
};

static bool same_key(uintptr_t iid, const void *key)
{
	const struct lookup *l = key;
	size_t start = iid > 1 ? key_end(l->in, iid - 2) : 0;

	/* Empty keys (an empty name) may sit in a buffer never grown: no pointer to compare. */
	return key_end(l->in, iid - 1) - start == l->len &&
	       (!l->len || !memcmp(l->in->keys.p + start, l->key, l->len));
}

/* The iid of @key, made when new (*fresh set).  Return: the iid, or -ENOMEM. */
static int64_t intern(struct intern *in, const void *key, size_t len, bool *fresh)
{
	struct lookup l = { in, key, len };
	uint64_t h = f2t_hash_bytes(key, len);
	struct f2t_hslot *s = f2t_hash_slot(&in->index, h, same_key, &l);

	*fresh = !s->val;
	if (s->val)
		return (int64_t)s->val;
	pb_raw(&in->keys, key, len);
	pb_raw(&in->ends, &in->keys.len, sizeof(in->keys.len));
	if (in->keys.err || in->ends.err || f2t_hash_reserve(&in->index))
		return -ENOMEM;
	in->n++;
	f2t_hash_put(&in->index, f2t_hash_slot(&in->index, h, same_key, &l), h, in->n);
	return (int64_t)in->n;
}

static void intern_fini(struct intern *in)
{
	f2t_hash_fini(&in->index);
	pb_buf_free(&in->keys);
	pb_buf_free(&in->ends);
}

enum { I_NAME, I_PATH, I_BUILD_ID, I_COUNT };

/*
 * The model's definitions as kept here, by the model's id - 1, each with
 * its iid once a sample's packet interned it (0: not yet).  Iids are given
 * in the order samples first use them, so what only off-CPU stacks use is
 * never written.
 */
struct mapping {
	uint64_t start, end, iid;
	size_t path, bid;		/* in the pool */
	uint32_t path_len, bid_len;
};

struct frame {
	uint64_t rel_pc, iid;
	uint32_t mapping;
	uint32_t name_len;
	size_t name;			/* in the pool */
};

struct callstack {
	uint32_t parent, frame, depth;
	bool kernel;
	uint64_t iid;
};

/* Array @a (a pb_buf of struct @T) at index @i. */
#define AT(a, T, i) (&((T *)(a).p)[i])

struct pf_samples {
	struct f2t_sampling sampling;
	bool mono, started;
	struct intern in[I_COUNT];
	struct pb_buf interned;		/* InternedData of the packet being built */
	struct pb_buf maps, frames, stacks, pool;
	uint64_t nmaps, nframes, nstacks;	/* iids given */
	uint64_t *ids;			/* a sample's frame iids, root first */
	size_t ids_cap;
};

struct pf_samples *pf_samples_new(const struct f2t_sampling *sampling, bool mono)
{
	struct pf_samples *s = calloc(1, sizeof(*s));

	if (!s)
		goto nomem;
	s->sampling = *sampling;
	s->mono = mono;
	for (int i = 0; i < I_COUNT; i++)
		if (f2t_hash_init(&s->in[i].index, 256))
			goto nomem;
	return s;
nomem:
	pf_samples_free(s);
	errno = ENOMEM;
	return NULL;
}

void pf_samples_free(struct pf_samples *s)
{
	if (!s)
		return;
	for (int i = 0; i < I_COUNT; i++)
		intern_fini(&s->in[i]);
	pb_buf_free(&s->interned);
	pb_buf_free(&s->maps);
	pb_buf_free(&s->frames);
	pb_buf_free(&s->stacks);
	pb_buf_free(&s->pool);
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
	int64_t iid = intern(&s->in[which], p, len, &fresh);

	if (iid > 0 && fresh)
		interned_string(&s->interned, field, iid, p, len);
	return iid;
}

/* @p[0..@len) kept in the pool: its offset. */
static size_t keep(struct pf_samples *s, const void *p, size_t len)
{
	size_t at = s->pool.len;

	pb_raw(&s->pool, p, len);
	return at;
}

/* Keeps a definition of the model's until a sample uses it. */
static int define(struct pf_samples *s, const struct f2t_item *it)
{
	switch (it->kind) {
	case F2T_ITEM_MAPPING: {
		const struct f2t_mapping_def *m = it->def.mapping;
		struct mapping k = {
			.start = m->start, .end = m->start + m->len,
			.path = keep(s, m->path.s, m->path.len), .path_len = (uint32_t)m->path.len,
			.bid = keep(s, m->build_id, m->build_id_len),
			.bid_len = (uint32_t)m->build_id_len,
		};

		pb_raw(&s->maps, &k, sizeof(k));
		break;
	}
	case F2T_ITEM_FRAME: {
		const struct f2t_frame_def *f = it->def.frame;
		struct frame k = { .rel_pc = f->rel_pc, .mapping = f->mapping,
				   .name_len = (uint32_t)f->name.len,
				   .name = keep(s, f->name.s, f->name.len) };

		pb_raw(&s->frames, &k, sizeof(k));
		break;
	}
	case F2T_ITEM_CALLSTACK: {
		const struct f2t_callstack_def *c = it->def.callstack;
		struct callstack k = { c->parent, c->frame, c->depth, c->kernel, 0 };

		pb_raw(&s->stacks, &k, sizeof(k));
		break;
	}
	default:
		break;
	}
	return s->maps.err | s->frames.err | s->stacks.err | s->pool.err;
}

/* The iid of mapping @id, interned in the packet (with its strings) when new. */
static int64_t mapping_iid(struct pf_samples *s, uint32_t id)
{
	struct mapping *m = AT(s->maps, struct mapping, id - 1);
	int64_t path, bid = 0;
	size_t e;

	if (m->iid)
		return (int64_t)m->iid;
	path = string_iid(s, I_PATH, PF_INTERNED_MAPPING_PATHS, s->pool.p + m->path, m->path_len);
	if (path > 0 && m->bid_len)
		bid = string_iid(s, I_BUILD_ID, PF_INTERNED_BUILD_IDS, s->pool.p + m->bid,
				 m->bid_len);
	if (path < 0 || bid < 0)
		return -ENOMEM;
	m->iid = ++s->nmaps;
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
	struct frame *f = AT(s->frames, struct frame, id - 1);
	int64_t map = 0, name;
	size_t e;

	if (f->iid)
		return (int64_t)f->iid;
	if (f->mapping)
		map = mapping_iid(s, f->mapping);
	if (map < 0)
		return map;
	name = string_iid(s, I_NAME, PF_INTERNED_FUNCTION_NAMES, s->pool.p + f->name,
			  f->name_len);
	if (name < 0)
		return name;
	f = AT(s->frames, struct frame, id - 1);
	f->iid = ++s->nframes;
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
	struct callstack *c = AT(s->stacks, struct callstack, id - 1);
	size_t n = c->depth, e;

	if (c->iid)
		return (int64_t)c->iid;
	if (n > s->ids_cap) {
		uint64_t *v = realloc(s->ids, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->ids = v;
		s->ids_cap = n;
	}
	for (uint32_t at = id; at; at = AT(s->stacks, struct callstack, at - 1)->parent)
		s->ids[--n] = AT(s->stacks, struct callstack, at - 1)->frame;
	/* Frames are interned root first, as they are listed. */
	for (size_t i = 0; i < c->depth; i++) {
		int64_t fr = frame_iid(s, (uint32_t)s->ids[i]);

		if (fr < 0)
			return fr;
		s->ids[i] = (uint64_t)fr;
	}
	c->iid = ++s->nstacks;
	e = pb_open(&s->interned, PF_INTERNED_CALLSTACKS);
	pb_uint(&s->interned, PF_CALLSTACK_IID, c->iid);
	/* Not packed: Perfetto declares frame_ids without [packed = true]. */
	for (size_t i = 0; i < c->depth; i++)
		pb_uint(&s->interned, PF_CALLSTACK_FRAME_IDS, s->ids[i]);
	pb_close(&s->interned, e);
	return (int64_t)c->iid;
}

/* The sequence's first packet, before its first sample. */
static void start(struct pf_samples *s, struct pb_buf *b)
{
	if (s->started)
		return;
	s->started = true;
	pf_seq_defaults(b, PF_SEQ_SAMPLES, s->mono ? PF_CLOCK_MONOTONIC : 0, &s->sampling);
}

static size_t packet(struct pf_samples *s, struct pb_buf *b, uint64_t ts)
{
	start(s, b);
	return pf_packet_open(b, &(struct pf_head){
		.has_ts = true, .ts = ts, .seq = PF_SEQ_SAMPLES,
		.flags = PF_SEQ_NEEDS_INCREMENTAL_STATE });
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
		pb_uint(b, PF_PS_CPU_MODE, AT(s->stacks, struct callstack, cs - 1)->kernel ?
						   PF_MODE_KERNEL : PF_MODE_USER);
	}
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
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
