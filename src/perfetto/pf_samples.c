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

/* A callstack as the model defined it, and its iid here once a sample used it. */
struct callstack {
	uint32_t parent, frame, depth;
	uint64_t iid;		/* 0: not interned yet */
	bool kernel;
};

struct pf_samples {
	struct f2t_sampling sampling;
	bool mono, started;
	struct intern in[I_COUNT];
	/* InternedData not yet in a packet: what was defined since the last sample. */
	struct pb_buf interned;
	struct callstack *stacks;	/* by the model's id - 1 */
	size_t nstacks, stackcap;
	uint64_t ncallstacks;		/* callstack iids given */
	uint64_t *frames;		/* a sample's frame ids, root first */
	size_t frames_cap;
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
	free(s->stacks);
	free(s->frames);
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

/* A mapping, its iid the model's id. */
static int mapping(struct pf_samples *s, const struct f2t_mapping_def *m)
{
	int64_t path, bid = 0;
	size_t e;

	path = string_iid(s, I_PATH, PF_INTERNED_MAPPING_PATHS, m->path.s, m->path.len);
	if (path > 0 && m->build_id_len)
		bid = string_iid(s, I_BUILD_ID, PF_INTERNED_BUILD_IDS, m->build_id,
				 m->build_id_len);
	if (path < 0 || bid < 0)
		return -ENOMEM;
	e = pb_open(&s->interned, PF_INTERNED_MAPPINGS);
	pb_uint(&s->interned, PF_MAP_IID, m->id);
	if (bid)
		pb_uint(&s->interned, PF_MAP_BUILD_ID, (uint64_t)bid);
	pb_uint(&s->interned, PF_MAP_START, m->start);
	pb_uint(&s->interned, PF_MAP_END, m->start + m->len);
	pb_uint(&s->interned, PF_MAP_PATH_STRING_IDS, (uint64_t)path);
	pb_close(&s->interned, e);
	return s->interned.err;
}

/*
 * A frame, its iid the model's id.  A frame outside any mapping (JIT code,
 * unknown) has no mapping: trace_processor keeps it by name.
 */
static int frame(struct pf_samples *s, const struct f2t_frame_def *f)
{
	int64_t name = string_iid(s, I_NAME, PF_INTERNED_FUNCTION_NAMES, f->name.s, f->name.len);
	size_t e;

	if (name < 0)
		return (int)name;
	e = pb_open(&s->interned, PF_INTERNED_FRAMES);
	pb_uint(&s->interned, PF_FRAME_IID, f->id);
	pb_uint(&s->interned, PF_FRAME_FUNCTION_NAME_ID, (uint64_t)name);
	if (f->mapping) {
		pb_uint(&s->interned, PF_FRAME_MAPPING_ID, f->mapping);
		pb_uint(&s->interned, PF_FRAME_REL_PC, f->rel_pc);
	}
	pb_close(&s->interned, e);
	return s->interned.err;
}

/* A callstack, kept to be interned when a sample first names it. */
static int callstack(struct pf_samples *s, const struct f2t_callstack_def *c)
{
	if (s->nstacks == s->stackcap) {
		size_t cap = s->stackcap ? s->stackcap * 2 : 1024;
		struct callstack *v = realloc(s->stacks, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->stacks = v;
		s->stackcap = cap;
	}
	s->stacks[s->nstacks++] = (struct callstack){ c->parent, c->frame, c->depth, 0, c->kernel };
	return 0;
}

/*
 * The iid of callstack @id (the model's), interned when new as its frame
 * ids, root first.  Callstacks get iids in the order samples first name
 * them, so those no sample names (off-CPU stacks) take none.
 */
static int64_t callstack_iid(struct pf_samples *s, uint32_t id)
{
	struct callstack *c = &s->stacks[id - 1];
	size_t n = c->depth, e;

	if (c->iid)
		return (int64_t)c->iid;
	if (n > s->frames_cap) {
		uint64_t *f = realloc(s->frames, n * sizeof(*f));

		if (!f)
			return -ENOMEM;
		s->frames = f;
		s->frames_cap = n;
	}
	for (uint32_t at = id; at; at = s->stacks[at - 1].parent)
		s->frames[--n] = s->stacks[at - 1].frame;
	c->iid = ++s->ncallstacks;
	e = pb_open(&s->interned, PF_INTERNED_CALLSTACKS);
	pb_uint(&s->interned, PF_CALLSTACK_IID, c->iid);
	/* Not packed: Perfetto declares frame_ids without [packed = true]. */
	for (size_t i = 0; i < c->depth; i++)
		pb_uint(&s->interned, PF_CALLSTACK_FRAME_IDS, s->frames[i]);
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

/* One CPU sample, with what was defined since the last one. */
static int sample(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it)
{
	const struct f2t_event *ev = it->ev;
	uint32_t cs = it->stack.callstack;
	int64_t iid = cs ? callstack_iid(s, cs) : 0;
	size_t pkt, ps;

	if (iid < 0 || s->interned.err)
		return iid < 0 ? (int)iid : s->interned.err;
	pkt = packet(s, b, ev->ts);
	if (s->interned.len)
		pb_bytes(b, PF_PKT_INTERNED_DATA, s->interned.p, s->interned.len);
	s->interned.len = 0;
	ps = pb_open(b, PF_PKT_PERF_SAMPLE);
	pb_uint(b, PF_PS_CPU, ev->cpu);
	pb_uint(b, PF_PS_PID, (uint32_t)it->track.pid);
	pb_uint(b, PF_PS_TID, (uint32_t)ev->pid);
	if (cs) {
		pb_uint(b, PF_PS_CALLSTACK_IID, (uint64_t)iid);
		pb_uint(b, PF_PS_CPU_MODE,
			s->stacks[cs - 1].kernel ? PF_MODE_KERNEL : PF_MODE_USER);
	}
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
}

int pf_samples_item(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it)
{
	switch (it->kind) {
	case F2T_ITEM_MAPPING:
		return mapping(s, it->def.mapping);
	case F2T_ITEM_FRAME:
		return frame(s, it->def.frame);
	case F2T_ITEM_CALLSTACK:
		return callstack(s, it->def.callstack);
	case F2T_ITEM_SAMPLE:
		return sample(s, b, it);
	default:
		return 0;
	}
}

int pf_samples_lost(struct pf_samples *s, struct pb_buf *b, uint64_t ts, uint64_t count)
{
	size_t pkt = packet(s, b, ts), ps = pb_open(b, PF_PKT_PERF_SAMPLE);

	pb_uint(b, PF_PS_KERNEL_RECORDS_LOST, count);
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
}
