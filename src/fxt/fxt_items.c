// SPDX-License-Identifier: MIT
/*
 * The model's items as FXT records: slices as duration begin/end/complete
 * events, instants and clock syncs as instant events (FXT has no clock
 * sync record), counters as counter events, async slices as async
 * begin/end, pseudo tracks' names as kernel object records, and CPU
 * samples as profiler backtraces preceded by the module and mmap records
 * their frames need (from the model's definitions, fxt_prof.h).  An
 * off-CPU slice's stacks are string arguments "stack" and "waker_stack",
 * their text (model/stack_text.h) interned in the string table like any
 * name: FXT has no stack a duration event can name, and Perfetto shows no
 * profiler record, so a repeated stack costs a string reference.
 * Everything a record refers to is interned before the record is encoded
 * (fxt_tables.h says why).
 */
#include <errno.h>
#include <string.h>

#include "fxt/fxt_writer-local.h"

#define MAX_NAME_INLINE	256	/* free text as a name is cut here */
#define MAX_VALUE_INLINE 4096	/* an argument's text is cut here */

/* A ref for an item string: interned, or written in place when it is free text. */
static int str_ref(struct f2t_writer *w, struct f2t_str s, bool unique, size_t max,
		   struct fxt_str *ref)
{
	if (unique) {
		*ref = fxt_str_inline(s.s, s.len < max ? s.len : max);
		return 0;
	}
	return fxt_string_ref(w, s.s, s.len, ref);
}

/* The thread an item is drawn on; a task is named before its first record. */
static int track_ref(struct f2t_writer *w, const struct f2t_track *t, struct fxt_thread *ref)
{
	if (t->kind == F2T_TRACK_THREAD) {
		int ret = fxt_ensure_named(w, t->tid);

		if (ret)
			return ret;
	}
	return fxt_thread_ref(w, (uint64_t)t->pid, (uint64_t)t->tid, ref);
}

static int put_arg(struct f2t_writer *w, struct fxt_args *args, const struct f2t_arg *a)
{
	struct fxt_priv *p = w->priv;
	uint64_t *dst = p->argw + args->nwords;
	struct fxt_str key, v;
	int n, ret;

	ret = fxt_string_ref(w, a->name, strlen(a->name), &key);
	if (ret)
		return ret;
	switch (a->type) {
	case F2T_ARG_I32:
		n = fxt_arg_int32(dst, key, (int32_t)a->i);
		break;
	case F2T_ARG_U32:
		n = fxt_arg_uint32(dst, key, (uint32_t)a->u);
		break;
	case F2T_ARG_I64:
		n = fxt_arg_int64(dst, key, a->i);
		break;
	case F2T_ARG_U64:
		n = fxt_arg_uint64(dst, key, a->u);
		break;
	case F2T_ARG_DOUBLE:
		n = fxt_arg_double(dst, key, a->d);
		break;
	case F2T_ARG_BOOL:
		n = fxt_arg_bool(dst, key, a->b);
		break;
	default: {
		/* Text is cut to what the record still has room for. */
		size_t room = (FXT_ARG_WORDS - args->nwords - 4) * 8;

		ret = str_ref(w, a->str, a->unique,
			      room < MAX_VALUE_INLINE ? room : MAX_VALUE_INLINE, &v);
		if (ret)
			return ret;
		n = fxt_arg_string(dst, key, v);
		break;
	}
	}
	if (n < 0)
		return n;
	args->nwords = (uint16_t)(args->nwords + n);
	args->count++;
	return 0;
}

/* An off-CPU slice's stacks as interned strings. */
static int put_stacks(struct f2t_writer *w, struct fxt_args *args, const struct f2t_item *it)
{
	struct fxt_priv *p = w->priv;
	struct f2t_arg a = { .name = "stack", .type = F2T_ARG_STR,
			     .str = f2t_stack_text(p->stacks, it->stack.callstack) };
	int ret = put_arg(w, args, &a);

	if (ret || !it->waker_stack.callstack)
		return ret;
	a.name = "waker_stack";
	a.str = f2t_stack_text(p->stacks, it->waker_stack.callstack);
	return put_arg(w, args, &a);
}

/* A pseudo track's name, as the kernel object record of its thread or process. */
static int write_name(struct f2t_writer *w, const struct f2t_item *it)
{
	struct fxt_priv *p = w->priv;
	struct fxt_args args = { .words = p->argw };
	bool process = it->track.kind == F2T_TRACK_CPUS;
	struct fxt_str name, key;
	int ret;

	ret = fxt_string_ref(w, it->name.s, it->name.len, &name);
	if (!ret && !process) {
		ret = fxt_string_ref(w, "process", strlen("process"), &key);
		args.nwords = (uint16_t)fxt_arg_koid(p->argw, key, (uint64_t)it->track.pid);
		args.count = 1;
	}
	if (ret)
		return ret;
	return fxt_emit_encoded(w, fxt_kernel_object(p->rec,
						     process ? FXT_OBJ_PROCESS : FXT_OBJ_THREAD,
						     (uint64_t)(process ? it->track.pid : it->track.tid),
						     name, &args));
}

/*
 * The module record for mapping @map's binary and the mmap record for
 * @map in process @pid, the first time a backtrace needs them.  Module
 * records name the process that first mapped the module (thread koid 0, as
 * the spec has it).
 */
static int describe(struct f2t_writer *w, uint64_t ts, int32_t pid, uint32_t map)
{
	struct fxt_priv *p = w->priv;
	const struct fxt_prof_mapping *m = fxt_prof_mapping(p->prof, map);
	struct fxt_thread proc = fxt_thread_inline((uint64_t)pid, 0);
	const uint8_t *bid;
	const char *name;
	size_t len, bid_len;
	int ret;

	if (m->module > UINT16_MAX)
		return 0;	/* more binaries than FXT can number: raw address only */
	ret = fxt_prof_first_module(p->prof, map, &name, &len, &bid, &bid_len);
	if (ret > 0)
		/* A name longer than FXT allows keeps its end: the file name. */
		ret = fxt_emit_encoded(w, fxt_profiler_module(p->rec, ts, proc, (uint16_t)m->module,
							      len > 255 ? name + len - 255 : name,
							      len > 255 ? 255 : len, bid, bid_len));
	if (ret < 0)
		return ret;
	ret = fxt_prof_first_mmap(p->prof, pid, map);
	if (ret > 0)
		/* Only executable mappings are tracked: r-x. */
		ret = fxt_emit_encoded(w, fxt_profiler_mmap(p->rec, ts, proc, (uint16_t)m->module,
							    5, m->start, m->len, m->vaddr));
	return ret < 0 ? ret : 0;
}

/*
 * A CPU sample: what its frames need described, then one backtrace record;
 * and the same sample as a Perfetto packet, which is what Perfetto shows
 * (it skips profiler records).
 */
static int write_sample(struct f2t_writer *w, const struct f2t_item *it)
{
	const struct f2t_event *ev = it->ev;
	struct fxt_priv *p = w->priv;
	uint64_t ips[255];
	uint32_t maps[255];
	size_t n = fxt_prof_stack(p->prof, it->stack.callstack, ips, maps, 255);
	struct fxt_thread thread;
	int ret;

	ret = fxt_ensure_named(w, ev->pid);
	for (size_t i = 0; !ret && i < n; i++)
		if (maps[i])
			ret = describe(w, ev->ts, it->track.pid, maps[i]);
	if (!ret)
		ret = fxt_thread_ref(w, (uint64_t)it->track.pid, (uint64_t)it->track.tid, &thread);
	if (!ret)
		ret = fxt_emit_encoded(w, fxt_profiler_backtrace(p->rec, ev->ts, thread, ips, n));
	if (!ret)
		ret = pf_samples_item(p->pf, &p->pfbuf, it);
	return ret ? ret : fxt_flush_perfetto(w, false);
}

/* A definition of the model's profile: kept for the samples that use it. */
static int define(struct f2t_writer *w, const struct f2t_item *it)
{
	struct fxt_priv *p = w->priv;
	int ret = fxt_prof_define(p->prof, it);

	if (!ret)
		ret = f2t_stack_text_define(p->stacks, it);
	return ret ? ret : pf_samples_item(p->pf, &p->pfbuf, it);
}

int fxt_write_item(struct f2t_writer *w, const struct f2t_item *it)
{
	struct fxt_priv *p = w->priv;
	struct fxt_args args = { .words = p->argw };
	struct fxt_event_head e = { .ts = it->ts, .args = &args };
	int ret;

	switch (it->kind) {
	case F2T_ITEM_NAME:
		return write_name(w, it);
	case F2T_ITEM_SAMPLE:
		return write_sample(w, it);
	case F2T_ITEM_MAPPING:
	case F2T_ITEM_FRAME:
	case F2T_ITEM_CALLSTACK:
	case F2T_ITEM_STACK_NODE:
		return define(w, it);
	default:
		break;
	}
	ret = track_ref(w, &it->track, &e.thread);
	if (!ret)
		ret = fxt_category_ref(w, it->category, &e.category);
	if (!ret && it->name.s)
		ret = str_ref(w, it->name, it->name_unique, MAX_NAME_INLINE, &e.name);
	for (unsigned int i = 0; !ret && i < it->nargs; i++)
		ret = put_arg(w, &args, &it->args[i]);
	if (!ret && it->ev && it->ev->kind == F2T_EV_OFFCPU)
		ret = put_stacks(w, &args, it);
	if (ret)
		return ret;
	switch (it->kind) {
	case F2T_ITEM_BEGIN:
		ret = fxt_duration_begin(p->rec, &e);
		break;
	case F2T_ITEM_END:
		ret = fxt_duration_end(p->rec, &e);
		break;
	case F2T_ITEM_COMPLETE:
		ret = fxt_duration_complete(p->rec, &e, it->end_ts);
		break;
	case F2T_ITEM_COUNTER:
		ret = fxt_counter(p->rec, &e, it->id);
		break;
	case F2T_ITEM_ASYNC_BEGIN:
		ret = fxt_async_begin(p->rec, &e, it->id);
		break;
	case F2T_ITEM_ASYNC_END:
		ret = fxt_async_end(p->rec, &e, it->id);
		break;
	default:	/* INSTANT, CLOCK_SYNC */
		ret = fxt_instant(p->rec, &e);
		break;
	}
	return fxt_emit_encoded(w, ret);
}
