// SPDX-License-Identifier: MIT
/*
 * The model's items as traceEvents entries, each written as ",\n{...}":
 *   slices       "B" / "E" / "X" (with "dur")
 *   instants     "i" with "s":"t" (on the thread)
 *   counters     "C", one series per argument
 *   async        "b" / "e" with the pairing id as a hex string
 *   clock syncs  "c" named "clock_sync" (Trace Viewer links clock domains by them)
 *   names        "M" process_name / thread_name for pseudo tracks
 * "ts" is microseconds with three decimals, so no nanosecond is lost.  An
 * "E" names the slice it ends only when the model knows the name: a name
 * that differed from its "B"'s would make the viewers complain.
 * An off-CPU slice's stacks are its "sf" (Trace Viewer shows it with the
 * slice) and, as arguments "stack" and "waker_stack", their text (what
 * Perfetto shows: it skips stackFrames).  Samples are json_samples.c's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json/json_fmt.h"
#include "json/json_writer-local.h"

static void put_str(struct f2t_out *o, struct f2t_str s)
{
	f2t_json_put_string(o, s.s, s.len);
}

/* An argument's name, after the ones before it ("args" opened at the first). */
static void put_key(struct f2t_out *o, unsigned int i, const char *name)
{
	f2t_out_puts(o, i ? "," : ",\"args\":{");
	f2t_json_put_string(o, name, strlen(name));
	f2t_out_putc(o, ':');
}

/* @it's arguments, and an off-CPU slice's stacks as text. */
static void put_args(struct f2t_out *o, const struct f2t_item *it, struct f2t_stack_text *st)
{
	unsigned int n = it->nargs;

	for (unsigned int i = 0; i < it->nargs; i++) {
		const struct f2t_arg *a = &it->args[i];

		put_key(o, i, a->name);
		switch (a->type) {
		case F2T_ARG_I32:
		case F2T_ARG_I64:
			f2t_json_put_i64(o, a->i);
			break;
		case F2T_ARG_U32:
		case F2T_ARG_U64:
			f2t_json_put_u64(o, a->u);
			break;
		case F2T_ARG_DOUBLE:
			f2t_json_put_double(o, a->d);
			break;
		case F2T_ARG_BOOL:
			f2t_out_puts(o, a->b ? "true" : "false");
			break;
		default:
			put_str(o, a->str);
			break;
		}
	}
	if (it->ev && it->ev->kind == F2T_EV_OFFCPU) {
		put_key(o, n++, "stack");
		put_str(o, f2t_stack_text(st, it->stack.callstack));
		if (it->waker_stack.callstack) {
			put_key(o, n++, "waker_stack");
			put_str(o, f2t_stack_text(st, it->waker_stack.callstack));
		}
	}
	if (n)
		f2t_out_putc(o, '}');
}

/* A pseudo track's name: {"name":"thread_name","ph":"M",...,"args":{"name":N}} */
static void put_name(struct f2t_out *o, const struct f2t_item *it)
{
	f2t_out_puts(o, it->track.kind == F2T_TRACK_CPUS ? ",\n{\"name\":\"process_name\"" :
							  ",\n{\"name\":\"thread_name\"");
	f2t_out_puts(o, ",\"ph\":\"M\",\"pid\":");
	f2t_json_put_i64(o, it->track.pid);
	f2t_out_puts(o, ",\"tid\":");
	f2t_json_put_i64(o, it->track.tid);
	f2t_out_puts(o, ",\"args\":{\"name\":");
	put_str(o, it->name);
	f2t_out_puts(o, "}}");
}

int json_write_item(struct f2t_writer *w, const struct f2t_item *it)
{
	static const char phase[] = {
		[F2T_ITEM_BEGIN] = 'B', [F2T_ITEM_END] = 'E', [F2T_ITEM_COMPLETE] = 'X',
		[F2T_ITEM_INSTANT] = 'i', [F2T_ITEM_COUNTER] = 'C',
		[F2T_ITEM_ASYNC_BEGIN] = 'b', [F2T_ITEM_ASYNC_END] = 'e',
		[F2T_ITEM_CLOCK_SYNC] = 'c',
	};
	struct json_priv *p = w->priv;
	struct f2t_out *o = p->events.out;

	switch (it->kind) {
	case F2T_ITEM_NAME:
		put_name(o, it);
		return o->err;
	case F2T_ITEM_SAMPLE:
		return json_sample(w, it);
	case F2T_ITEM_STACK_NODE:
		return json_stack_node(w, it);
	case F2T_ITEM_MAPPING:
		return 0;
	case F2T_ITEM_FRAME:
	case F2T_ITEM_CALLSTACK:
		return f2t_stack_text_define(p->stacks, it);
	case F2T_ITEM_CLOCK_SYNC:
		f2t_out_puts(o, ",\n{\"name\":\"clock_sync\"");
		break;
	default:
		f2t_out_puts(o, ",\n{");
		if (it->name.s && (it->kind != F2T_ITEM_END || it->name.len)) {
			f2t_out_puts(o, "\"name\":");
			put_str(o, it->name);
			f2t_out_putc(o, ',');
		}
		f2t_out_puts(o, "\"cat\":");
		put_str(o, it->category);
		break;
	}
	f2t_out_puts(o, ",\"ph\":\"");
	f2t_out_putc(o, phase[it->kind]);
	f2t_out_putc(o, '"');
	if (it->kind == F2T_ITEM_INSTANT)
		f2t_out_puts(o, ",\"s\":\"t\"");
	if (it->kind == F2T_ITEM_ASYNC_BEGIN || it->kind == F2T_ITEM_ASYNC_END) {
		char id[40];
		int n = snprintf(id, sizeof(id), ",\"id\":\"0x%016" PRIx64 "\"", it->id);

		f2t_out_write(o, id, (size_t)n);
	}
	f2t_out_puts(o, ",\"ts\":");
	f2t_json_put_ts(o, it->ts);
	f2t_out_puts(o, ",\"pid\":");
	f2t_json_put_i64(o, it->track.pid);
	f2t_out_puts(o, ",\"tid\":");
	f2t_json_put_i64(o, it->track.tid);
	if (it->kind == F2T_ITEM_COMPLETE) {
		f2t_out_puts(o, ",\"dur\":");
		f2t_json_put_ts(o, it->end_ts - it->ts);
	}
	if (it->stack.node) {
		/* The slice's stack in stackFrames: Trace Viewer shows it with the slice. */
		f2t_out_puts(o, ",\"sf\":");
		f2t_json_put_u64(o, it->stack.node);
	}
	put_args(o, it, p->stacks);
	f2t_out_putc(o, '}');
	return o->err;
}
