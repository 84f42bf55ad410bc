// SPDX-License-Identifier: MIT
/*
 * One cursor per CPU walks that CPU's PERF_DATA records in file order; a
 * min-heap on timestamps interleaves them.  A record handed out by the heap is
 * held as pending until it is taken, so advancing to a time never applies
 * a record from after it.  Every length is checked before it is used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/perf_rec.h"
#include "model/stats.h"
#include "source/perf/perfwalk.h"
#include "util/minheap.h"
#include "util/log.h"

struct cursor {
	struct f2t_perf_rec r;		/* the current record; r.rec NULL at the end */
	const size_t *recs;		/* indices of this CPU's PERF_DATA records */
	size_t nrecs, ri;
	uint64_t pos;			/* offset of the next perf record in recs[ri] */
};

struct f2t_perfwalk {
	const struct f2t_capr *cap;
	uint64_t sample_type;
	struct f2t_maps *maps;
	struct f2t_cap_cpus split;	/* PERF_DATA records by CPU */
	struct cursor *cursors;
	uint32_t ncursors;
	struct f2t_minheap heap;	/* cursors by their next record's time */
	struct cursor *pending;		/* handed out by the heap, not taken yet */
	uint64_t maps_ns;		/* the MAPS records hold the records before this */
};

/* Timestamp of the record at C (the previous one's when it carries none). */
static uint64_t record_time(const struct f2t_perfwalk *w, const struct cursor *c)
{
	uint64_t ts;

	return f2t_perf_rec_time(c->r.rec, c->r.size, c->r.type, w->sample_type, &ts) ? ts
										 : c->r.ts;
}

/* Loads the record at the cursor's position, moving to the next capture record as needed. */
static int cursor_load(void *input, void *ctx)
{
	struct f2t_perfwalk *w = ctx;
	struct cursor *c = input;

	for (;;) {
		const struct f2t_cap_rec *r;
		struct perf_event_header h;

		if (c->ri >= c->nrecs) {
			c->r.rec = NULL;
			return 0;
		}
		r = &w->cap->recs[c->recs[c->ri]];
		if (c->pos >= r->len) {
			c->ri++;
			c->pos = 0;
			continue;
		}
		if (r->len - c->pos < sizeof(h)) {
			f2t_err("%s: offset %llu: cpu %u: perf record header cut short",
				 w->cap->path, (unsigned long long)(r->offset + c->pos), c->r.cpu);
			return -EINVAL;
		}
		memcpy(&h, (const unsigned char *)r->data + c->pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > r->len - c->pos) {
			f2t_err("%s: offset %llu: cpu %u: perf record of %u bytes does not fit",
				 w->cap->path, (unsigned long long)(r->offset + c->pos), c->r.cpu,
				 h.size);
			return -EINVAL;
		}
		c->r.rec = (const unsigned char *)r->data + c->pos;
		c->r.size = h.size;
		c->r.type = (uint16_t)h.type;
		c->r.misc = h.misc;
		c->pos += h.size;
		c->r.ts = record_time(w, c);
		return 1;
	}
}

static int setup_cursors(struct f2t_perfwalk *w)
{
	int ret;

	ret = f2t_capr_split_by_cpu(w->cap, F2T_CAP_PERF_DATA, F2T_MAX_CPUS, &w->split);
	if (ret)
		return ret;
	w->ncursors = w->split.ncpus;
	w->cursors = calloc(w->ncursors ? w->ncursors : 1, sizeof(*w->cursors));
	if (!w->cursors || f2t_minheap_init(&w->heap, w->ncursors, offsetof(struct cursor, r.ts), cursor_load, w))
		return -ENOMEM;
	for (uint32_t i = 0; !ret && i < w->ncursors; i++) {
		w->cursors[i].r.cpu = i;
		w->cursors[i].recs = w->split.cpu[i].recs;
		w->cursors[i].nrecs = w->split.cpu[i].n;
		ret = f2t_minheap_add(&w->heap, &w->cursors[i]);
	}
	return ret;
}

/* MMAP (1) and MMAP2 (10): a new executable mapping.  1: malformed. */
static int apply_mmap(struct f2t_perfwalk *w, const struct f2t_perf_rec *c)
{
	const unsigned char *p = c->rec + 8, *end = c->rec + c->size;
	size_t fixed = c->type == PERF_RECORD_MMAP2 ? 8 + 24 + 24 + 8 : 8 + 24;
	struct f2t_build_id bid = { 0 };
	const unsigned char *name;
	struct f2t_module *mod;
	size_t nlen;

	if ((size_t)(end - p) < fixed + 1)
		return 1;
	if (c->type == PERF_RECORD_MMAP2 && (c->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		uint8_t n = p[32];

		if (n <= 20) {
			bid.len = n;
			memcpy(bid.b, p + 36, n);
		}
	}
	name = p + fixed;
	/* The name is NUL-padded; the sample_id trailer follows it. */
	if ((size_t)(end - name) > F2T_PERF_ID_TRAILER)
		end -= F2T_PERF_ID_TRAILER;
	nlen = strnlen((const char *)name, (size_t)(end - name));
	mod = f2t_maps_module(w->maps, (const char *)name, nlen, &bid);
	if (!mod)
		return -ENOMEM;
	return f2t_maps_add(w->maps, (int32_t)f2t_perf_u32(p), f2t_perf_u64(p + 8),
			    f2t_perf_u64(p + 16), f2t_perf_u64(p + 24), mod);
}

/* Applies C if it changes an address space: 0, 1 when malformed, or -ENOMEM. */
static int apply(struct f2t_perfwalk *w, const struct f2t_perf_rec *c)
{
	const unsigned char *p = c->rec + 8;
	size_t body = c->size - 8u;

	/* A flight recorder's later snapshot read /proc after them: already applied. */
	if (c->ts < w->maps_ns)
		return 0;
	switch (c->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return apply_mmap(w, c);
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: a new process starts as a copy of its parent */
		if (body < 16)
			return 1;
		if (f2t_perf_u32(p) != f2t_perf_u32(p + 4))
			return f2t_maps_fork(w->maps, (int32_t)f2t_perf_u32(p + 4),
					     (int32_t)f2t_perf_u32(p));
		return 0;
	case PERF_RECORD_COMM:
		/* pid, tid, comm: after an exec, the old mappings are gone */
		if (body < 8)
			return 1;
		if (c->misc & PERF_RECORD_MISC_COMM_EXEC)
			f2t_maps_exec(w->maps, (int32_t)f2t_perf_u32(p));
		return 0;
	default:
		return 0;
	}
}

/* The next record into w->pending, not applied yet: 1, 0 at the end, negative errno. */
static int pull(struct f2t_perfwalk *w)
{
	if (w->pending)
		return 1;
	return f2t_minheap_next(&w->heap, (void **)&w->pending);
}

int f2t_perfwalk_next(struct f2t_perfwalk *w, const struct f2t_perf_rec **rec)
{
	struct cursor *c;
	int ret = pull(w);

	if (ret <= 0)
		return ret;
	c = w->pending;
	w->pending = NULL;
	ret = apply(w, &c->r);
	if (ret < 0) {
		f2t_err("%s: out of memory", w->cap->path);
		return ret;
	}
	c->r.malformed = ret > 0;
	*rec = &c->r;
	return 1;
}

int f2t_perfwalk_peek(struct f2t_perfwalk *w, uint64_t *ts)
{
	int ret = pull(w);

	if (ret > 0)
		*ts = w->pending->r.ts;
	return ret;
}

int f2t_perfwalk_load_proc_maps(struct f2t_maps *maps, const struct f2t_recording *rec)
{
	for (size_t i = 0; i < rec->nproc_maps; i++) {
		const struct f2t_pid_text *m = &rec->proc_maps[i];

		if (f2t_maps_parse_proc(maps, m->pid, m->text, m->len) < 0)
			return -ENOMEM;
	}
	return 0;
}

struct f2t_perfwalk *f2t_perfwalk_open(const struct f2t_capr *cap, uint64_t sample_type,
				       struct f2t_maps *maps)
{
	struct f2t_perfwalk *w = calloc(1, sizeof(*w));
	int ret;

	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->cap = cap;
	w->sample_type = sample_type;
	w->maps = maps;
	w->maps_ns = f2t_capr_kv_u64(f2t_capr_find(cap, F2T_CAP_META, -1), "flight_maps_ns");
	ret = setup_cursors(w);
	if (ret) {
		f2t_perfwalk_free(w);
		errno = -ret;
		return NULL;
	}
	return w;
}

void f2t_perfwalk_free(struct f2t_perfwalk *w)
{
	if (!w)
		return;
	free(w->cursors);
	f2t_cap_cpus_free(&w->split);
	f2t_minheap_free(&w->heap);
	free(w);
}
