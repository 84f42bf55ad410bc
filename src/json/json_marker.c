// SPDX-License-Identifier: MIT
/*
 * trace_marker writes as traceEvents entries.  Every entry has the thread
 * that wrote the marker as "tid" and its process from the task table as
 * "pid"; "ts" is the kernel's timestamp in microseconds with three decimals,
 * so no nanosecond is lost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/marker_track.h"
#include "json/json_fmt.h"
#include "json/json_marker.h"

struct json_markers {
	struct f2t_mtrack *track;
	/* Kernel timestamps of the recorder's own clock sync markers, 0 unseen. */
	uint64_t sync_start_ts, sync_end_ts;
};

struct json_markers *json_markers_new(const char *own_sync_id)
{
	struct json_markers *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->track = f2t_mtrack_new();
	if (!m->track || (own_sync_id && *own_sync_id &&
			  f2t_mtrack_reserve_sync_id(m->track, own_sync_id))) {
		json_markers_free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void json_markers_free(struct json_markers *m)
{
	if (!m)
		return;
	f2t_mtrack_free(m->track);
	free(m);
}

static void put_str(struct f2t_out *o, struct f2t_marker_str s)
{
	f2t_json_put_string(o, s.s, s.len);
}

static void put_i64(struct f2t_out *o, int64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_i64(buf, v));
}

static void put_u64(struct f2t_out *o, uint64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_u64(buf, v));
}

/*
 * The shortest decimal that reads back as V (V is finite: the table turns
 * infinities into malformed markers), so 0.1 stays "0.1".
 */
static void put_double(struct f2t_out *o, double v)
{
	char buf[40];
	int n = 0;

	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	f2t_out_write(o, buf, (size_t)n);
}

/* ,"args":{"key": for the first argument, ,"key": for the others. */
static void key(struct f2t_out *o, bool *first, const char *k)
{
	f2t_out_puts(o, *first ? ",\"args\":{\"" : ",\"");
	f2t_out_puts(o, k);
	f2t_out_puts(o, "\":");
	*first = false;
}

/* The "args" object each kind of entry carries, if any. */
static void put_args(struct f2t_out *o, const struct f2t_mrecord *r)
{
	const struct f2t_marker *mk = &r->m;
	bool first = true;

	switch (r->rec) {
	case F2T_MREC_COUNTER:
		key(o, &first, "value");
		if (mk->value_is_double)
			put_double(o, mk->dvalue);
		else
			put_i64(o, mk->ivalue);
		break;
	case F2T_MREC_ASYNC_BEGIN:
	case F2T_MREC_ASYNC_END:
		key(o, &first, "cookie");
		put_i64(o, mk->cookie);
		if (mk->track.len) {
			key(o, &first, "track");
			put_str(o, mk->track);
		}
		break;
	case F2T_MREC_CLOCK_SYNC:
	case F2T_MREC_INSTANT:
		if (mk->kind == F2T_MARKER_CLOCK_SYNC) {
			key(o, &first, "sync_id");
			put_str(o, r->sync_id);
			if (mk->has_parent_ts) {
				key(o, &first, "parent_ts");
				put_str(o, mk->parent_ts);
			}
			if (r->repeated_sync) {
				key(o, &first, "repeated");
				f2t_out_puts(o, "true");
			}
			break;
		}
		if (mk->track.len) {
			key(o, &first, "track");
			put_str(o, mk->track);
		}
		if (r->malformed) {
			key(o, &first, "malformed");
			f2t_json_put_string(o, r->malformed, strlen(r->malformed));
		}
		break;
	default:
		break;
	}
	if (mk->kind != F2T_MARKER_TEXT && mk->kind != F2T_MARKER_COUNTER &&
	    mk->kind != F2T_MARKER_CLOCK_SYNC && mk->args.len) {
		key(o, &first, "args");
		put_str(o, mk->args);
	}
	if (!first)
		f2t_out_putc(o, '}');
}

int json_markers_event(struct json_markers *m, struct f2t_writer *w, const struct f2t_event *ev)
{
	const struct f2t_task *t = ev->pid > 0 ? f2t_tasks_find(w->tasks, ev->pid) : NULL;
	const struct f2t_trace_info *info = w->info;
	struct f2t_out *o = w->out;
	struct f2t_mrecord r;
	char ts[F2T_JSON_NUM_MAX];
	size_t tslen = f2t_json_ts(ts, ev->ts);
	int ret;

	ret = f2t_mtrack_event(m->track, ev, t ? t->tgid : 0, &r);
	if (ret || r.rec == F2T_MREC_NONE)
		return ret;

	if (r.rec == F2T_MREC_CLOCK_SYNC) {
		/* The recorder's own sync markers: remember when the kernel saw them. */
		if (info->sync_start.id && r.sync_id.len == strlen(info->sync_start.id) &&
		    !memcmp(r.sync_id.s, info->sync_start.id, r.sync_id.len))
			m->sync_start_ts = ev->ts;
		if (info->sync_end.id && r.sync_id.len == strlen(info->sync_end.id) &&
		    !memcmp(r.sync_id.s, info->sync_end.id, r.sync_id.len))
			m->sync_end_ts = ev->ts;
		f2t_out_puts(o, ",\n{\"name\":\"clock_sync\",\"ph\":\"c\"");
	} else {
		static const char phase[] = {
			[F2T_MREC_BEGIN] = 'B', [F2T_MREC_END] = 'E', [F2T_MREC_COUNTER] = 'C',
			[F2T_MREC_ASYNC_BEGIN] = 'b', [F2T_MREC_ASYNC_END] = 'e',
			[F2T_MREC_INSTANT] = 'i',
		};

		f2t_out_puts(o, ",\n{");
		/*
		 * An E names nothing: the slice it ends is its thread's
		 * innermost, and a name or category that differed from the
		 * B's would make the viewers complain.
		 */
		if (r.rec != F2T_MREC_END) {
			f2t_out_puts(o, "\"name\":");
			put_str(o, r.name);
			f2t_out_puts(o, ",\"cat\":");
			put_str(o, r.category);
			f2t_out_putc(o, ',');
		}
		f2t_out_puts(o, "\"ph\":\"");
		f2t_out_putc(o, phase[r.rec]);
		f2t_out_putc(o, '"');
		if (r.rec == F2T_MREC_INSTANT)
			f2t_out_puts(o, ",\"s\":\"t\"");
		if (r.rec == F2T_MREC_ASYNC_BEGIN || r.rec == F2T_MREC_ASYNC_END) {
			char id[40];
			int n = snprintf(id, sizeof(id), ",\"id\":\"0x%016" PRIx64 "\"", r.async_id);

			f2t_out_write(o, id, (size_t)n);
		}
	}
	f2t_out_puts(o, ",\"ts\":");
	f2t_out_write(o, ts, tslen);
	f2t_out_puts(o, ",\"pid\":");
	put_i64(o, r.tgid);
	f2t_out_puts(o, ",\"tid\":");
	put_i64(o, r.tid);
	put_args(o, &r);
	f2t_out_putc(o, '}');
	return o->err;
}

static void member(struct f2t_out *o, const char *k, uint64_t v)
{
	f2t_out_puts(o, ",\"");
	f2t_out_puts(o, k);
	f2t_out_puts(o, "\":");
	put_u64(o, v);
}

/* One recorder sync point: id, the kernel's time for it, the clocks read with it. */
static void sync_point(struct f2t_out *o, const char *which, const struct f2t_sync_point *p,
		       uint64_t trace_ns)
{
	char k[48];

	if (!p->id || !*p->id)
		return;
	snprintf(k, sizeof(k), ",\"sync_%s_id\":", which);
	f2t_out_puts(o, k);
	f2t_json_put_string(o, p->id, strlen(p->id));
	snprintf(k, sizeof(k), "sync_%s_trace_ns", which);
	member(o, k, trace_ns);
	snprintf(k, sizeof(k), "sync_%s_mono_ns", which);
	member(o, k, p->mono_ns);
	snprintf(k, sizeof(k), "sync_%s_realtime_ns", which);
	member(o, k, p->realtime_ns);
	snprintf(k, sizeof(k), "sync_%s_boottime_ns", which);
	member(o, k, p->boottime_ns);
}

void json_markers_other_data(struct json_markers *m, struct f2t_writer *w)
{
	struct f2t_out *o = w->out;
	struct f2t_mcounts c;

	f2t_mtrack_counts(m->track, &c);
	f2t_mtrack_report(m->track, w->info);
	member(o, "markers_malformed", c.malformed);
	member(o, "markers_unmatched_ends", c.unmatched_ends);
	member(o, "markers_unmatched_async_ends", c.unmatched_async_ends);
	member(o, "markers_repeated_sync_ids", c.repeated_sync_ids);
	member(o, "markers_open_slices", c.open_slices);
	member(o, "markers_open_async", c.open_async);
	sync_point(o, "start", &w->info->sync_start, m->sync_start_ts);
	sync_point(o, "end", &w->info->sync_end, m->sync_end_ts);
}
