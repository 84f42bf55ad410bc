// SPDX-License-Identifier: MIT
/*
 * Markers to records (see marker_track.h for the mapping).  Per event: one
 * parse, one or two hash lookups, no allocation except when a thread, an
 * async slice or a sync id is seen for the first time.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strset.h"
#include "model/marker_track.h"
#include "model/slices.h"
#include "util/log.h"

#define ASYNC_INITIAL_CAP 64	/* a power of two */

static const char category_marker[] = "marker";

/* One open async slice: its id and a copy of its begin's name. */
struct async_slot {
	uint64_t id;
	char *name;		/* NULL: the slot is free */
	size_t len;
};

struct f2t_mtrack {
	struct f2t_slices *slices;
	struct async_slot *async;	/* open addressing, linear probing */
	size_t async_cap;		/* a power of two */
	size_t async_used;
	struct f2t_strset sync_ids;
	char *end_name;			/* the last async end's name, for its record */
	struct f2t_mcounts counts;
};

struct f2t_mtrack *f2t_mtrack_new(void)
{
	struct f2t_mtrack *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->slices = f2t_slices_new();
	t->async = calloc(ASYNC_INITIAL_CAP, sizeof(*t->async));
	if (!t->slices || !t->async) {
		f2t_mtrack_free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->async_cap = ASYNC_INITIAL_CAP;
	return t;
}

void f2t_mtrack_free(struct f2t_mtrack *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->async && i < t->async_cap; i++)
		free(t->async[i].name);
	free(t->async);
	free(t->end_name);
	f2t_slices_free(t->slices);
	f2t_strset_fini(&t->sync_ids);
	free(t);
}

int f2t_mtrack_reserve_sync_id(struct f2t_mtrack *t, const char *id)
{
	int ret = f2t_strset_add(&t->sync_ids, id, strlen(id));

	return ret < 0 ? ret : 0;
}

/* splitmix64's finalizer: every input bit reaches every output bit. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
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
	return mix64(h);
}

/* The slot holding ID, or the free slot where it would go. */
static struct async_slot *async_find(const struct f2t_mtrack *t, uint64_t id)
{
	size_t mask = t->async_cap - 1, i = (size_t)mix64(id) & mask;

	while (t->async[i].name && t->async[i].id != id)
		i = (i + 1) & mask;
	return &t->async[i];
}

static int async_grow(struct f2t_mtrack *t)
{
	struct async_slot *old = t->async;
	size_t old_cap = t->async_cap;

	t->async = calloc(old_cap * 2, sizeof(*t->async));
	if (!t->async) {
		t->async = old;
		return -ENOMEM;
	}
	t->async_cap = old_cap * 2;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].name)
			*async_find(t, old[i].id) = old[i];
	free(old);
	return 0;
}

/*
 * Opens async slice ID named NAME.  A second begin with an id already open
 * keeps the first name: the viewers pair by id, so its end closes one of
 * them whatever we do.
 */
static int async_open(struct f2t_mtrack *t, uint64_t id, struct f2t_marker_str name)
{
	struct async_slot *s;

	/* At most half full, so probe runs stay short. */
	if ((t->async_used + 1) * 2 > t->async_cap && async_grow(t))
		return -ENOMEM;
	s = async_find(t, id);
	if (s->name)
		return 0;
	/* +1: an empty name still needs a non-NULL copy to mark the slot used. */
	s->name = malloc(name.len + 1);
	if (!s->name)
		return -ENOMEM;
	memcpy(s->name, name.s, name.len);
	s->name[name.len] = '\0';
	s->len = name.len;
	s->id = id;
	t->async_used++;
	return 0;
}

/*
 * Empties the slot at S (its name now belongs to the caller), moving later
 * entries of its probe run back so every entry stays reachable from its
 * home slot without tombstones.
 */
static void async_remove(struct f2t_mtrack *t, struct async_slot *s)
{
	size_t mask = t->async_cap - 1, hole = (size_t)(s - t->async), i = hole;

	s->name = NULL;
	t->async_used--;
	for (;;) {
		size_t home;

		i = (i + 1) & mask;
		if (!t->async[i].name)
			return;
		home = (size_t)mix64(t->async[i].id) & mask;
		/* Move it back only if its home is not between the hole and it. */
		if ((i > hole && (home <= hole || home > i)) ||
		    (i < hole && home <= hole && home > i)) {
			t->async[hole] = t->async[i];
			t->async[i].name = NULL;
			hole = i;
		}
	}
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
	} else {
		r->sync_id = r->m.sync_id;
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

int f2t_mtrack_event(struct f2t_mtrack *t, const struct f2t_event *ev, int32_t tgid,
		     struct f2t_mrecord *r)
{
	struct async_slot *s;
	int ret = 0;

	memset(r, 0, sizeof(*r));
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
		s = async_find(t, r->async_id);
		if (!s->name) {
			r->rec = F2T_MREC_NONE;
			t->counts.unmatched_async_ends++;
			return 0;
		}
		/* The begin's name outlives its slot until the next call. */
		free(t->end_name);
		t->end_name = s->name;
		r->name = (struct f2t_marker_str){ s->name, s->len };
		async_remove(t, s);
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

void f2t_mtrack_counts(const struct f2t_mtrack *t, struct f2t_mcounts *c)
{
	*c = t->counts;
	c->open_slices = f2t_slices_open(t->slices);
	c->open_async = t->async_used;
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
