// SPDX-License-Identifier: MIT
/* CPU samples as PerfSample packets with interned stacks (pf_samples.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/stacks.h"
#include "perfetto/pf_fields.h"
#include "perfetto/pf_packets.h"
#include "perfetto/pf_samples.h"
#include "symbols/maps.h"
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

enum { I_NAME, I_PATH, I_BUILD_ID, I_MAPPING, I_FRAME, I_CALLSTACK, I_COUNT };

struct pf_samples {
	struct f2t_sampling sampling;
	bool mono, started;
	struct intern in[I_COUNT];
	struct pb_buf interned;		/* InternedData of the packet being built */
	uint64_t *frames;		/* a sample's frame iids, root first */
	size_t frames_cap;
	char name[512];
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

/* The mapping of frame @f in process @pid: the kernel's is everyone's.  0: none. */
static int64_t mapping_iid(struct pf_samples *s, int32_t pid, const struct f2t_frame *f)
{
	const struct f2t_module *m = f->mod;
	struct { uint64_t start; int32_t pid; uint32_t mod; } key;
	int64_t iid, path, bid = 0;
	bool fresh;
	size_t e;

	if (!m)
		return 0;
	memset(&key, 0, sizeof(key));
	key.start = f->map_start;
	key.pid = f->kernel ? -1 : pid;
	key.mod = m->id;
	iid = intern(&s->in[I_MAPPING], &key, sizeof(key), &fresh);
	if (iid <= 0 || !fresh)
		return iid;
	path = string_iid(s, I_PATH, PF_INTERNED_MAPPING_PATHS, m->name, strlen(m->name));
	if (path > 0 && m->build_id.len)
		bid = string_iid(s, I_BUILD_ID, PF_INTERNED_BUILD_IDS, m->build_id.b,
				 m->build_id.len);
	if (path < 0 || bid < 0)
		return -ENOMEM;
	e = pb_open(&s->interned, PF_INTERNED_MAPPINGS);
	pb_uint(&s->interned, PF_MAP_IID, (uint64_t)iid);
	if (bid)
		pb_uint(&s->interned, PF_MAP_BUILD_ID, (uint64_t)bid);
	pb_uint(&s->interned, PF_MAP_START, f->map_start);
	pb_uint(&s->interned, PF_MAP_END, f->map_start + f->map_len);
	pb_uint(&s->interned, PF_MAP_PATH_STRING_IDS, (uint64_t)path);
	pb_close(&s->interned, e);
	return iid;
}

/*
 * The frame at @f->ip of its mapping, named as every output names it
 * (model/stacks.h).  A frame outside any mapping (JIT code, unknown) has
 * no mapping: trace_processor keeps it by name.
 */
static int64_t frame_iid(struct pf_samples *s, int32_t pid, const struct f2t_frame *f)
{
	int64_t map = mapping_iid(s, pid, f), iid, name;
	struct { uint64_t ip; int64_t map; int32_t pid; int32_t pad; } key;
	bool fresh;
	size_t len, e;

	if (map < 0)
		return map;
	memset(&key, 0, sizeof(key));
	key.ip = f->ip;
	key.map = map;
	key.pid = map ? 0 : pid;	/* JIT names are the process's own */
	iid = intern(&s->in[I_FRAME], &key, sizeof(key), &fresh);
	if (iid <= 0 || !fresh)
		return iid;
	len = f2t_frame_name(f, s->name, sizeof(s->name));
	name = string_iid(s, I_NAME, PF_INTERNED_FUNCTION_NAMES, s->name, len);
	if (name < 0)
		return name;
	e = pb_open(&s->interned, PF_INTERNED_FRAMES);
	pb_uint(&s->interned, PF_FRAME_IID, (uint64_t)iid);
	pb_uint(&s->interned, PF_FRAME_FUNCTION_NAME_ID, (uint64_t)name);
	if (map) {
		pb_uint(&s->interned, PF_FRAME_MAPPING_ID, (uint64_t)map);
		pb_uint(&s->interned, PF_FRAME_REL_PC, f->ip - f->map_start);
	}
	pb_close(&s->interned, e);
	return iid;
}

/* The callstack of @ev's frames, root first.  0: no frames; -ENOMEM. */
static int64_t callstack_iid(struct pf_samples *s, const struct f2t_event *ev, int32_t pid)
{
	size_t n = ev->sample.nframes, e;
	int64_t iid;
	bool fresh;

	if (!n)
		return 0;
	if (n > s->frames_cap) {
		uint64_t *f = realloc(s->frames, n * sizeof(*f));

		if (!f)
			return -ENOMEM;
		s->frames = f;
		s->frames_cap = n;
	}
	/* Samples carry the innermost frame first. */
	for (size_t i = 0; i < n; i++) {
		int64_t fr = frame_iid(s, pid, &ev->sample.frames[n - 1 - i]);

		if (fr < 0)
			return fr;
		s->frames[i] = (uint64_t)fr;
	}
	iid = intern(&s->in[I_CALLSTACK], s->frames, n * sizeof(*s->frames), &fresh);
	if (iid <= 0 || !fresh)
		return iid;
	e = pb_open(&s->interned, PF_INTERNED_CALLSTACKS);
	pb_uint(&s->interned, PF_CALLSTACK_IID, (uint64_t)iid);
	/* Not packed: Perfetto declares frame_ids without [packed = true]. */
	for (size_t i = 0; i < n; i++)
		pb_uint(&s->interned, PF_CALLSTACK_FRAME_IDS, s->frames[i]);
	pb_close(&s->interned, e);
	return iid;
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

int pf_samples_add(struct pf_samples *s, struct pb_buf *b, const struct f2t_event *ev,
		   int32_t pid)
{
	int64_t cs;
	size_t pkt, ps;

	s->interned.len = 0;
	cs = callstack_iid(s, ev, pid);
	if (cs < 0 || s->interned.err)
		return cs < 0 ? (int)cs : s->interned.err;
	pkt = packet(s, b, ev->ts);
	if (s->interned.len)
		pb_bytes(b, PF_PKT_INTERNED_DATA, s->interned.p, s->interned.len);
	ps = pb_open(b, PF_PKT_PERF_SAMPLE);
	pb_uint(b, PF_PS_CPU, ev->cpu);
	pb_uint(b, PF_PS_PID, (uint32_t)pid);
	pb_uint(b, PF_PS_TID, (uint32_t)ev->pid);
	if (cs)
		pb_uint(b, PF_PS_CALLSTACK_IID, (uint64_t)cs);
	if (ev->sample.nframes)
		pb_uint(b, PF_PS_CPU_MODE,
			ev->sample.frames[0].kernel ? PF_MODE_KERNEL : PF_MODE_USER);
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
}

int pf_samples_lost(struct pf_samples *s, struct pb_buf *b, uint64_t ts, uint64_t count)
{
	size_t pkt = packet(s, b, ts), ps = pb_open(b, PF_PKT_PERF_SAMPLE);

	pb_uint(b, PF_PS_KERNEL_RECORDS_LOST, count);
	pb_close(b, ps);
	pb_close(b, pkt);
	return b->err;
}
