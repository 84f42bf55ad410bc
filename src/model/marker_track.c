// SPDX-License-Identifier: MIT
/*
 * Markers to records (see marker_track.h for the mapping).  Per event: one
 * parse, one or two hash lookups, no allocation except when a thread, an
 * async slice or a sync id is seen for the first time, or a print text
 * whose pid is replaced is longer than any before.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strset.h"
#include "model/marker_track.h"
#include "model/slices.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/vec.h"

static const char category_marker[] = "marker";

/* One open async slice: its id and a copy of its begin's name. */
struct async {
	uint64_t id;
	size_t len;
	char name[];
};

struct f2t_mtrack {
	struct f2t_slices *slices;
	struct f2t_hash async;		/* id -> struct async *, the open ones */
	struct f2t_strset sync_ids;
	struct f2t_strset line_ids;	/* name=ID ids of the clock sync marker lines */
	struct async *end_name;		/* the last async end's, for its record's name */
	char *text;			/* the last print text whose pid was replaced */
	size_t text_cap;
	struct f2t_mcounts counts;
};

struct f2t_mtrack *f2t_mtrack_new(void)
{
	struct f2t_mtrack *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->slices = f2t_slices_new();
	if (!t->slices || f2t_hash_init(&t->async, 64)) {
		f2t_mtrack_free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void f2t_mtrack_free(struct f2t_mtrack *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->async.slot && i <= t->async.mask; i++)
		free((void *)t->async.slot[i].val);
	f2t_hash_fini(&t->async);
	free(t->end_name);
	free(t->text);
	f2t_slices_free(t->slices);
	f2t_strset_fini(&t->sync_ids);
	f2t_strset_fini(&t->line_ids);
	free(t);
}

int f2t_mtrack_reserve_sync_id(struct f2t_mtrack *t, const char *id)
{
	int ret = f2t_strset_add(&t->sync_ids, id, strlen(id));

	return ret < 0 ? ret : 0;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t f2t_mtrack_hash(int32_t tgid, char space, struct f2t_marker_str key, int64_t cookie)
{
	uint64_t h = 0xcbf29ce484222325ull;
	/* Fixed-width fields first, the length before the key: no two inputs run together. */
	uint64_t fixed[3] = { (uint64_t)(uint32_t)tgid, (uint64_t)(unsigned char)space,
			      (uint64_t)cookie };
	uint64_t len = key.len;

	h = fnv1a(h, fixed, sizeof(fixed));
	h = fnv1a(h, &len, sizeof(len));
	h = fnv1a(h, key.s, key.len);
	return f2t_hash_u64(h);
}

static bool same_id(uintptr_t val, const void *key)
{
	return ((const struct async *)val)->id == *(const uint64_t *)key;
}

/* The slot of open async slice ID, or the empty slot where it would go. */
static struct f2t_hslot *async_find(const struct f2t_mtrack *t, uint64_t id)
{
	return f2t_hash_slot(&t->async, f2t_hash_u64(id), same_id, &id);
}

/*
 * Opens async slice ID named NAME.  A second begin with an id already open
 * keeps the first name: the viewers pair by id, so its end closes one of
 * them whatever we do.
 */
static int async_open(struct f2t_mtrack *t, uint64_t id, struct f2t_marker_str name)
{
	struct async *a;

	if (async_find(t, id)->val)
		return 0;
	if (f2t_hash_reserve(&t->async))
		return -ENOMEM;
	a = malloc(sizeof(*a) + name.len + 1);
	if (!a)
		return -ENOMEM;
	a->id = id;
	a->len = name.len;
	memcpy(a->name, name.s, name.len);
	a->name[name.len] = '\0';
	f2t_hash_put(&t->async, async_find(t, id), f2t_hash_u64(id), (uintptr_t)a);
	return 0;
}

static struct f2t_marker_str view(const char *s)
{
	return (struct f2t_marker_str){ s, strlen(s) };
}

static int clock_sync(struct f2t_mtrack *t, const struct f2t_event *ev, struct f2t_mrecord *r)
{
	int ret;

	if (r->m.has_parent_ts) {
		int n = snprintf(r->sync_buf, sizeof(r->sync_buf), "parent_ts-%" PRIu64, ev->ts);

		r->sync_id = (struct f2t_marker_str){ r->sync_buf, (size_t)n };
		r->print.parent_ts_line = true;
	} else {
		r->sync_id = r->m.sync_id;
		/* Lines have their own ids: not the file's reserved one, not parent_ts's made-up ones. */
		ret = f2t_strset_add(&t->line_ids, r->sync_id.s, r->sync_id.len);
		if (ret < 0)
			return ret;
		r->print.repeated_sync_line = ret == 0;
	}
	ret = f2t_strset_add(&t->sync_ids, r->sync_id.s, r->sync_id.len);
	if (ret < 0)
		return ret;
	r->name = view("clock_sync");
	if (ret == 0) {
		t->counts.repeated_sync_ids++;
		r->repeated_sync = true;
		r->rec = F2T_MREC_INSTANT;
		return 0;
	}
	r->rec = F2T_MREC_CLOCK_SYNC;
	return 0;
}

static int record(struct f2t_mtrack *t, const struct f2t_event *ev, int32_t tgid,
		  struct f2t_mrecord *r)
{
	struct f2t_hslot *slot;
	int ret = 0;

	memset(r, 0, offsetof(struct f2t_mrecord, m));
	f2t_marker_parse(ev->print.buf, ev->print.len, &r->m);
	r->tid = ev->pid;
	r->tgid = tgid > 0 ? tgid : ev->pid;
	r->name = r->m.name;
	r->category = view(category_marker);
	t->counts.markers++;
	t->counts.kinds[r->m.kind]++;

	switch (r->m.kind) {
	case F2T_MARKER_BEGIN:
		ret = f2t_slices_begin(t->slices, r->tid);
		if (ret < 0)
			return ret;
		r->rec = F2T_MREC_BEGIN;
		return 0;
	case F2T_MARKER_END:
		if (f2t_slices_end(t->slices, r->tid)) {
			r->rec = F2T_MREC_END;
		} else {
			r->rec = F2T_MREC_NONE;
			t->counts.unmatched_ends++;
		}
		return 0;
	case F2T_MARKER_COUNTER:
		/* "1e999" parses as a number but no trace format holds infinity. */
		if (!isfinite(r->m.dvalue)) {
			t->counts.malformed++;
			r->name = (struct f2t_marker_str){ ev->print.buf, ev->print.len };
			r->malformed = "counter value out of range";
			r->rec = F2T_MREC_INSTANT;
			return 0;
		}
		if (r->m.args.len)
			r->category = r->m.args;
		r->rec = F2T_MREC_COUNTER;
		return 0;
	case F2T_MARKER_ASYNC_BEGIN:
	case F2T_MARKER_TRACK_BEGIN: {
		bool track = r->m.kind == F2T_MARKER_TRACK_BEGIN;

		r->async_id = f2t_mtrack_hash(r->tgid, track ? 'G' : 'S',
					      track ? r->m.track : r->m.name, r->m.cookie);
		ret = async_open(t, r->async_id, r->m.name);
		if (ret)
			return ret;
		r->rec = F2T_MREC_ASYNC_BEGIN;
		return 0;
	}
	case F2T_MARKER_ASYNC_END:
	case F2T_MARKER_TRACK_END: {
		bool track = r->m.kind == F2T_MARKER_TRACK_END;

		r->async_id = f2t_mtrack_hash(r->tgid, track ? 'G' : 'S',
					      track ? r->m.track : r->m.name, r->m.cookie);
		slot = async_find(t, r->async_id);
		if (!slot->val) {
			r->rec = F2T_MREC_NONE;
			t->counts.unmatched_async_ends++;
			return 0;
		}
		/* The begin's name outlives its slot until the next call. */
		free(t->end_name);
		t->end_name = (struct async *)slot->val;
		r->name = (struct f2t_marker_str){ t->end_name->name, t->end_name->len };
		f2t_hash_remove(&t->async, slot);
		r->rec = F2T_MREC_ASYNC_END;
		return 0;
	}
	case F2T_MARKER_INSTANT:
	case F2T_MARKER_TRACK_INSTANT:
		r->rec = F2T_MREC_INSTANT;
		return 0;
	case F2T_MARKER_CLOCK_SYNC:
		return clock_sync(t, ev, r);
	case F2T_MARKER_TEXT:
	default:
		if (r->m.malformed) {
			t->counts.malformed++;
			r->malformed = r->m.reason ? r->m.reason : "malformed";
		}
		r->rec = F2T_MREC_INSTANT;
		return 0;
	}
}

/* Would trace_processor read marker @m as this table does (given a match for an end)? */
static bool atrace_agrees(const struct f2t_marker *m)
{
	switch (m->kind) {
	case F2T_MARKER_BEGIN:
		return m->name.len && !m->args.len;
	case F2T_MARKER_COUNTER:
		return m->name.len && !m->value_is_double;
	case F2T_MARKER_ASYNC_BEGIN:
	case F2T_MARKER_ASYNC_END:
	case F2T_MARKER_INSTANT:
		return m->name.len;
	case F2T_MARKER_TRACK_INSTANT:
	case F2T_MARKER_TRACK_BEGIN:
		return m->track.len && m->name.len;
	case F2T_MARKER_TRACK_END:
		return m->track.len;
	case F2T_MARKER_END:
	case F2T_MARKER_CLOCK_SYNC:
		return true;
	default:	/* text */
		return false;
	}
}

/* Room for "X|" and a pid beyond the text's own length. */
#define PID_ROOM 16

/* The text of print event @ev as trace_processor should read it: cut, with the record's tgid. */
static int atrace_text(struct f2t_mtrack *t, const struct f2t_event *ev, struct f2t_mrecord *r)
{
	const char *buf = ev->print.buf;
	size_t len = r->m.text_len;	/* the kernel's own text stops at a NUL too */
	const char *pid_end;
	int n;

	if (r->m.pid < 0 || r->m.pid == r->tgid || len < 2) {
		r->print.text = (struct f2t_marker_str){ buf, len };
		return 0;
	}
	if (f2t_vec_reserve(&t->text, &t->text_cap, len + PID_ROOM, 64))
		return -ENOMEM;
	pid_end = memchr(buf + 2, '|', len - 2);
	if (!pid_end)
		pid_end = buf + len;
	n = snprintf(t->text, PID_ROOM, "%c|%d", buf[0], r->tgid);
	memcpy(t->text + n, pid_end, (size_t)(buf + len - pid_end));
	r->print.text = (struct f2t_marker_str){ t->text, (size_t)n + (size_t)(buf + len - pid_end) };
	return 0;
}

int f2t_mtrack_event(struct f2t_mtrack *t, const struct f2t_event *ev, int32_t tgid,
		     struct f2t_mrecord *r)
{
	int ret = record(t, ev, tgid, r);

	if (ret || r->rec == F2T_MREC_NONE || !atrace_agrees(&r->m))
		return ret;
	r->print.atrace = true;
	return atrace_text(t, ev, r);
}

void f2t_mtrack_counts(const struct f2t_mtrack *t, struct f2t_mcounts *c)
{
	*c = t->counts;
	c->open_slices = f2t_slices_open(t->slices);
	c->open_async = t->async.used;
}

void f2t_mtrack_report(const struct f2t_mtrack *t)
{
	const struct f2t_mcounts *c = &t->counts;

	if (!(c->malformed || c->unmatched_ends || c->unmatched_async_ends ||
	      c->repeated_sync_ids))
		return;
	f2t_warn("markers: %" PRIu64 " malformed (kept as instants), %" PRIu64
		 " ends and %" PRIu64 " async ends with nothing open (dropped), %" PRIu64
		 " repeated clock sync ids (kept as instants)",
		 c->malformed, c->unmatched_ends, c->unmatched_async_ends,
		 c->repeated_sync_ids);
}
