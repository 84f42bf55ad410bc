// SPDX-License-Identifier: MIT
/* Items as TrackEvents (pf_track.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/pf_fields.h"
#include "perfetto/pf_packets.h"
#include "perfetto/pf_track.h"
#include "util/hash.h"
#include "util/idmap.h"

/*
 * Track uuids: a kind in the top byte, so no two kinds share one; then the
 * tid or pid, or for a process's counter and async tracks a number, 1, 2,
 * ... in order of first use.  A thread's track is its tid alone (below any
 * kind's, and never 0, the default track): every off-CPU slice names it
 * twice, in a varint of three or four bytes rather than nine.
 */
enum { U_THREAD = 1, U_PROCESS, U_PSEUDO, U_COUNTER, U_ASYNC, U_GLOBAL };

#define PSEUDO_NAME_MAX 32

struct pf_tracks {
	struct f2t_idmap described;	/* uuid -> nothing: its descriptor is written */
	struct f2t_idmap children;	/* hash of (kind, pid, key) -> uint64_t uuid */
	uint64_t nchildren;
	struct f2t_idmap pseudo_names;	/* pseudo tid -> char[PSEUDO_NAME_MAX] */
	char name[256];
};

static uint64_t uuid(unsigned int kind, uint64_t low)
{
	return (uint64_t)kind << 56 | (low & ((1ull << 56) - 1));
}

struct pf_tracks *pf_tracks_new(void)
{
	struct pf_tracks *t = calloc(1, sizeof(*t));

	if (!t || f2t_idmap_init(&t->described, 1) ||
	    f2t_idmap_init(&t->children, sizeof(uint64_t)) ||
	    f2t_idmap_init(&t->pseudo_names, PSEUDO_NAME_MAX)) {
		pf_tracks_free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void pf_tracks_free(struct pf_tracks *t)
{
	if (!t)
		return;
	f2t_idmap_fini(&t->described);
	f2t_idmap_fini(&t->children);
	f2t_idmap_fini(&t->pseudo_names);
	free(t);
}

/* 1 when @id's descriptor is still to be written (it is marked written), 0, -ENOMEM. */
static int first_use(struct pf_tracks *t, uint64_t id)
{
	bool fresh;

	if (!f2t_idmap_get(&t->described, (int64_t)id, &fresh))
		return -ENOMEM;
	return fresh;
}

/* A packet and the message in it, both open. */
struct open2 {
	size_t pkt, msg;
};

/*
 * A track's descriptor, stamped with the time of its first use.
 * trace_processor gives a thread descriptor's (pid, tid) a thread when it
 * reaches the packet in time order, and one without a time is placed at
 * the last time its sequence had: before the task_newtask of a thread
 * born during the recording, the descriptor would make a second thread of
 * that tid, with none of the first one's name or scheduling.
 */
static struct open2 descriptor_open(struct pb_buf *b, uint64_t id, uint64_t ts)
{
	struct open2 o;

	o.pkt = pf_packet_open(b, &(struct pf_head){
		.has_ts = true, .ts = ts, .seq = PF_SEQ_TRACKS,
		.flags = PF_SEQ_NEEDS_INCREMENTAL_STATE });
	o.msg = pb_open(b, PF_PKT_TRACK_DESCRIPTOR);
	pb_uint(b, PF_TD_UUID, id);
	return o;
}

static void close2(struct pb_buf *b, struct open2 o)
{
	pb_close(b, o.msg);
	pb_close(b, o.pkt);
}

/* A process's track: what its counters and async slices hang from. */
static int process_track(struct pf_tracks *t, struct pb_buf *b, int32_t pid, uint64_t ts,
			 uint64_t *out)
{
	uint64_t id = uuid(U_PROCESS, (uint32_t)pid);
	int ret = first_use(t, id);
	struct open2 d;
	size_t pd;

	*out = id;
	if (ret <= 0)
		return ret;
	d = descriptor_open(b, id, ts);
	pd = pb_open(b, PF_TD_PROCESS);
	pb_int(b, PF_PD_PID, pid);
	pb_close(b, pd);
	close2(b, d);
	return 0;
}

int pf_tracks_slice_track(struct pf_tracks *t, struct pb_buf *b, const struct f2t_item *it,
			  uint64_t *out)
{
	const struct f2t_track *tr = &it->track;
	bool thread = tr->kind == F2T_TRACK_THREAD;
	uint64_t id = uuid(thread ? U_THREAD : U_PSEUDO, (uint32_t)tr->tid);

	if (thread && tr->tid > 0)
		id = (uint32_t)tr->tid;
	int ret = first_use(t, id);
	struct open2 d;
	size_t td;

	*out = id;
	if (ret <= 0)
		return ret;
	d = descriptor_open(b, id, it->ts);
	if (thread) {
		td = pb_open(b, PF_TD_THREAD);
		pb_int(b, PF_THD_PID, tr->pid);
		pb_int(b, PF_THD_TID, tr->tid);
		pb_close(b, td);
	} else {
		const char *name = f2t_idmap_find(&t->pseudo_names, tr->tid);

		pb_str(b, PF_TD_NAME, name ? name : "?");
	}
	close2(b, d);
	return 0;
}

/*
 * The track of @it's process of kind @kind (counter or async) for @key (a
 * hash of the counter's name, the async pairing id), named @name.
 */
static int process_child(struct pf_tracks *t, struct pb_buf *b, const struct f2t_item *it,
			 unsigned int kind, uint64_t key, const char *name, size_t len,
			 uint64_t *out)
{
	uint64_t parent, *id;
	int ret = process_track(t, b, it->track.pid, it->ts, &parent);
	struct open2 d;
	bool fresh;
	size_t c;

	if (ret)
		return ret;
	key = f2t_hash_u64(key ^ f2t_hash_u64((uint64_t)kind << 32 | (uint32_t)it->track.pid));
	id = f2t_idmap_get(&t->children, (int64_t)key, &fresh);
	if (!id)
		return -ENOMEM;
	if (!fresh) {
		*out = *id;
		return 0;
	}
	*id = *out = uuid(kind, ++t->nchildren);
	d = descriptor_open(b, *out, it->ts);
	pb_uint(b, PF_TD_PARENT_UUID, parent);
	pb_bytes(b, PF_TD_NAME, name, len);
	if (kind == U_COUNTER) {
		c = pb_open(b, PF_TD_COUNTER);
		pb_close(b, c);
	}
	close2(b, d);
	return 0;
}

/* What of the item a TrackEvent carries besides its type and track. */
enum { NAMED = 1, ARGS = 2 };

/* A TrackEvent's packet at @ts. */
static struct pf_head event_head(uint64_t ts)
{
	return (struct pf_head){ .has_ts = true, .ts = ts, .seq = PF_SEQ_TRACKS,
				 .flags = PF_SEQ_NEEDS_INCREMENTAL_STATE };
}

static struct open2 event_open(struct pb_buf *b, uint64_t ts, uint32_t type, uint64_t id)
{
	struct pf_head h = event_head(ts);
	struct open2 o;

	o.pkt = pf_packet_open(b, &h);
	o.msg = pb_open(b, PF_PKT_TRACK_EVENT);
	pb_uint(b, PF_TE_TYPE, type);
	pb_uint(b, PF_TE_TRACK_UUID, id);
	return o;
}

/*
 * One TrackEvent of @type at @ts on track @id, with what @with says of @it.
 * Sized before it is written, packet and event: a long name or argument
 * (a symbol's, up to 64 KB) is not moved twice to make room for their
 * lengths.
 */
static void track_event(struct pb_buf *b, const struct f2t_item *it, uint64_t ts, uint32_t type,
			uint64_t id, unsigned int with)
{
	bool cat = (with & NAMED) && it->category.s && it->category.len;
	bool name = (with & NAMED) && it->name.s;
	size_t n = pb_uint_size(PF_TE_TYPE, type) + pb_uint_size(PF_TE_TRACK_UUID, id);
	struct pf_head h = event_head(ts);

	if (cat)
		n += pb_len_size(PF_TE_CATEGORIES, it->category.len);
	if (name)
		n += pb_len_size(PF_TE_NAME, it->name.len);
	if (with & ARGS)
		for (unsigned int i = 0; i < it->nargs; i++)
			n += pf_annotation_size(&it->args[i], 0, 0);
	pf_packet_open_sized(b, &h, pb_len_size(PF_PKT_TRACK_EVENT, n));
	pb_open_sized(b, PF_PKT_TRACK_EVENT, n);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	size_t body = b->len;
#endif
	pb_uint(b, PF_TE_TYPE, type);
	pb_uint(b, PF_TE_TRACK_UUID, id);
	if (cat)
		pb_bytes(b, PF_TE_CATEGORIES, it->category.s, it->category.len);
	if (name)
		pb_bytes(b, PF_TE_NAME, it->name.s, it->name.len);
	if (with & ARGS)
		for (unsigned int i = 0; i < it->nargs; i++)
			pf_annotation(b, &it->args[i], 0, 0);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	/* A size that is not what was written makes a file no reader can walk. */
	if (!b->err && b->len - body != n)
		abort();
#endif
}

/* A counter's series, each on its own counter track ("NAME", or "NAME SERIES"). */
static int counter(struct pf_tracks *t, struct pb_buf *b, const struct f2t_item *it)
{
	for (unsigned int i = 0; i < it->nargs; i++) {
		const struct f2t_arg *a = &it->args[i];
		bool plain = it->nargs == 1 && !strcmp(a->name, "value");
		int len = snprintf(t->name, sizeof(t->name), plain ? "%.*s" : "%.*s %s",
				   (int)it->name.len, it->name.s ? it->name.s : "", a->name);
		uint64_t id, key;
		struct open2 o;
		int ret;

		if (len < 0)
			len = 0;
		if (len >= (int)sizeof(t->name))
			len = sizeof(t->name) - 1;
		key = f2t_hash_bytes(t->name, (size_t)len);
		ret = process_child(t, b, it, U_COUNTER, key, t->name, (size_t)len, &id);
		if (ret)
			return ret;
		o = event_open(b, it->ts, PF_TE_COUNTER, id);
		if (a->type == F2T_ARG_DOUBLE)
			pb_double(b, PF_TE_DOUBLE_COUNTER_VALUE, a->d);
		else
			pb_int(b, PF_TE_COUNTER_VALUE,
			       a->type == F2T_ARG_U32 || a->type == F2T_ARG_U64 ? (int64_t)a->u : a->i);
		close2(b, o);
	}
	return b->err;
}

static int keep_name(struct pf_tracks *t, const struct f2t_item *it)
{
	char *name = f2t_idmap_get(&t->pseudo_names, it->track.tid, NULL);
	size_t len = it->name.len < PSEUDO_NAME_MAX - 1 ? it->name.len : PSEUDO_NAME_MAX - 1;

	if (!name)
		return -ENOMEM;
	memcpy(name, it->name.s, len);
	name[len] = '\0';
	return 0;
}

int pf_tracks_stats(struct pf_tracks *t, struct pb_buf *b, uint64_t ts, const struct f2t_stats *st)
{
	uint64_t id = uuid(U_GLOBAL, 1);
	struct open2 o;
	int ret = first_use(t, id);

	if (ret < 0)
		return ret;
	if (ret) {
		o = descriptor_open(b, id, ts);
		pb_str(b, PF_TD_NAME, "ftrace2trace");
		close2(b, o);
	}
	o = event_open(b, ts, PF_TE_INSTANT, id);
	for (size_t i = 0; i < f2t_stat_count; i++) {
		size_t da = pb_open(b, PF_TE_DEBUG_ANNOTATIONS);

		pb_str(b, PF_DA_NAME, f2t_stat_list[i].name);
		pb_uint(b, PF_DA_UINT, f2t_stat_value(st, &f2t_stat_list[i]));
		pb_close(b, da);
	}
	pb_str(b, PF_TE_CATEGORIES, "ftrace2trace");
	pb_str(b, PF_TE_NAME, "ftrace2trace_stats");
	close2(b, o);
	return b->err;
}

int pf_tracks_item(struct pf_tracks *t, struct pb_buf *b, const struct f2t_item *it)
{
	uint64_t id;
	int ret;

	switch (it->kind) {
	case F2T_ITEM_NAME:
		return it->track.kind == F2T_TRACK_CPUS ? 0 : keep_name(t, it);
	case F2T_ITEM_SAMPLE:
		return 0;
	case F2T_ITEM_COUNTER:
		return counter(t, b, it);
	case F2T_ITEM_ASYNC_BEGIN:
	case F2T_ITEM_ASYNC_END:
		/* One track per pairing id: async slices of one name may overlap. */
		ret = process_child(t, b, it, U_ASYNC, it->id, it->name.s ? it->name.s : "",
				    it->name.s ? it->name.len : 0, &id);
		if (!ret)
			track_event(b, it, it->ts, it->kind == F2T_ITEM_ASYNC_BEGIN ?
				    PF_TE_SLICE_BEGIN : PF_TE_SLICE_END, id,
				    it->kind == F2T_ITEM_ASYNC_BEGIN ? NAMED | ARGS : 0);
		break;
	default:
		ret = pf_tracks_slice_track(t, b, it, &id);
		if (ret)
			return ret;
		switch (it->kind) {
		case F2T_ITEM_BEGIN:
			track_event(b, it, it->ts, PF_TE_SLICE_BEGIN, id, NAMED | ARGS);
			break;
		case F2T_ITEM_END:
			/* The end's arguments go to the slice it ends. */
			track_event(b, it, it->ts, PF_TE_SLICE_END, id, ARGS);
			break;
		case F2T_ITEM_COMPLETE:
			track_event(b, it, it->ts, PF_TE_SLICE_BEGIN, id, NAMED | ARGS);
			track_event(b, it, it->end_ts, PF_TE_SLICE_END, id, 0);
			break;
		default:	/* INSTANT, CLOCK_SYNC */
			track_event(b, it, it->ts, PF_TE_INSTANT, id, NAMED | ARGS);
			break;
		}
	}
	return ret ? ret : b->err;
}
