// SPDX-License-Identifier: MIT
/*
 * trace_marker writes as items, on the writing thread of its process (the
 * task table's), as marker_track.h decides.  Arguments:
 *  - counters: "value" (int64, or double when the text had a fraction);
 *  - async begin/end: "cookie", and "track" for G/H;
 *  - clock syncs: "sync_id", and "parent_ts" for that form; a sync whose
 *    id the file already has becomes an instant with "repeated" too;
 *  - instants: "track" for N, "malformed" (why) for text that looked like a
 *    marker and was not one;
 *  - every kind but text, counters and clock syncs: what followed the
 *    marker's own fields, as "args".
 * Free text as an instant's name, and argument text, is marked unique.
 */
#include <string.h>

#include "model/model-local.h"

static void arg_text(struct f2t_item *it, struct f2t_arg *args, const char *name,
		     struct f2t_marker_str v)
{
	args[it->nargs++] = (struct f2t_arg){ .name = name, .type = F2T_ARG_STR, .unique = true,
					      .str = { v.s, v.len } };
}

static void record_args(struct f2t_item *it, struct f2t_arg *args, const struct f2t_mrecord *r)
{
	const struct f2t_marker *mk = &r->m;

	switch (r->rec) {
	case F2T_MREC_COUNTER:
		args[it->nargs++] = mk->value_is_double ?
			(struct f2t_arg){ .name = "value", .type = F2T_ARG_DOUBLE, .d = mk->dvalue } :
			(struct f2t_arg){ .name = "value", .type = F2T_ARG_I64, .i = mk->ivalue };
		return;
	case F2T_MREC_ASYNC_BEGIN:
	case F2T_MREC_ASYNC_END:
		args[it->nargs++] = (struct f2t_arg){ .name = "cookie", .type = F2T_ARG_I64,
						      .i = mk->cookie };
		if (mk->track.len)
			arg_text(it, args, "track", mk->track);
		break;
	case F2T_MREC_CLOCK_SYNC:
	case F2T_MREC_INSTANT:
		if (mk->kind == F2T_MARKER_CLOCK_SYNC) {
			arg_text(it, args, "sync_id", r->sync_id);
			if (mk->has_parent_ts)
				arg_text(it, args, "parent_ts", mk->parent_ts);
			if (r->repeated_sync)
				args[it->nargs++] = (struct f2t_arg){ .name = "repeated",
								      .type = F2T_ARG_BOOL, .b = true };
			return;
		}
		if (mk->track.len)
			arg_text(it, args, "track", mk->track);
		if (r->malformed)
			arg_text(it, args, "malformed",
				 (struct f2t_marker_str){ r->malformed, strlen(r->malformed) });
		break;
	default:
		break;
	}
	if (mk->kind != F2T_MARKER_TEXT && mk->kind != F2T_MARKER_COUNTER && mk->args.len)
		arg_text(it, args, "args", mk->args);
}

static bool is_id(struct f2t_marker_str id, const char *want)
{
	return want && id.len == strlen(want) && !memcmp(id.s, want, id.len);
}

int f2t_model_marker_event(struct f2t_model *m, const struct f2t_event *ev)
{
	static const enum f2t_item_kind kinds[] = {
		[F2T_MREC_BEGIN] = F2T_ITEM_BEGIN,
		[F2T_MREC_END] = F2T_ITEM_END,
		[F2T_MREC_COUNTER] = F2T_ITEM_COUNTER,
		[F2T_MREC_ASYNC_BEGIN] = F2T_ITEM_ASYNC_BEGIN,
		[F2T_MREC_ASYNC_END] = F2T_ITEM_ASYNC_END,
		[F2T_MREC_INSTANT] = F2T_ITEM_INSTANT,
		[F2T_MREC_CLOCK_SYNC] = F2T_ITEM_CLOCK_SYNC,
	};
	const struct f2t_task *t = ev->pid > 0 ? f2t_tasks_find(m->rec->tasks, ev->pid) : NULL;
	const struct f2t_trace_info *info = &m->rec->info;
	struct f2t_item it = { .ts = ev->ts, .ev = ev, .args = m->args };
	struct f2t_mrecord *r = &m->mark;
	int ret;

	ret = f2t_mtrack_event(m->markers, ev, t ? t->tgid : 0, r);
	if (ret || r->rec == F2T_MREC_NONE)
		return ret;
	if (r->rec == F2T_MREC_CLOCK_SYNC) {
		/* The recorder's own sync markers: when the kernel saw them. */
		if (is_id(r->sync_id, info->sync_start.id))
			m->sync_start_ts = ev->ts;
		if (is_id(r->sync_id, info->sync_end.id))
			m->sync_end_ts = ev->ts;
	}
	it.kind = kinds[r->rec];
	it.track = (struct f2t_track){ F2T_TRACK_THREAD, r->tgid, r->tid, 0 };
	it.category = (struct f2t_str){ r->category.s, r->category.len };
	it.name = (struct f2t_str){ r->name.s, r->name.len };
	/* Mostly unique: a format with a string table should not keep it. */
	it.name_unique = r->m.kind == F2T_MARKER_TEXT;
	/* ASYNC: the pairing id.  COUNTER: one series per process and name. */
	it.id = r->rec == F2T_MREC_COUNTER ? (uint64_t)(uint32_t)r->tgid : r->async_id;
	record_args(&it, m->args, r);
	return f2t_model_put(m, &it);
}
