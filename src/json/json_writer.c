// SPDX-License-Identifier: MIT
/*
 * The JSON writer: Chrome Trace Event Format, object form.
 *
 *   {"displayTimeUnit":"ns",
 *    "systemTraceEvents":"# tracer: nop\n...kernel text...",
 *    "traceEvents":[clock_sync, markers..., kernel activity..., names...],
 *    "otherData":{recording facts and every loss count}}
 *
 * Scheduling travels as the kernel's own ftrace text, which both viewers
 * parse (Perfetto reads sched_waking from it, catapult sched_wakeup; the
 * recorder takes both).  The model's items are traceEvents (json_items.c),
 * and the lines of what they draw stay out of the text: Trace Viewer would
 * draw irq and power lines a second time (its own CPU irq slices and
 * C-State / Clock Frequency counters), and Perfetto draws cpu_idle from the
 * text only next to a cpu_frequency track.  Function-tracer lines stay in
 * the text (neither viewer draws them from there).  Everything is streamed:
 * the text goes straight to the output, traceEvents to an unlinked spool
 * file that end() copies in before the names from the task table.  The text
 * comes first because it is the bigger part (a line per event; traceEvents
 * only what the model draws): a 1 GB text spooled was 1 GB written and
 * copied once more.  Neither viewer minds the order of the keys.  What each
 * viewer makes of it: docs/viewers.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_fmt.h"
#include "json/json_writer-local.h"
#include "model/identity.h"
#include "util/sort.h"
#include "util/vec.h"

/* The unknown-name placeholder of the task table: no name, not a name. */
static bool named(const struct f2t_task *t)
{
	return t->comm[0] && strcmp(t->comm, "<...>");
}

static int json_begin(struct f2t_writer *w)
{
	struct json_priv *p = w->priv;
	struct f2t_out *o = w->out, *ev = p->events.out;

	f2t_clock_link_choose(w->info, true, &p->link);
	f2t_out_puts(ev, "{\"name\":\"clock_sync\",\"ph\":\"c\",\"ts\":");
	f2t_json_put_ts(ev, p->link.ts);
	f2t_out_puts(ev, ",\"pid\":0,\"tid\":0,\"args\":{\"sync_id\":");
	f2t_json_put_string(ev, p->link.sync_id, strlen(p->link.sync_id));
	f2t_out_puts(ev, "}}");
	f2t_out_puts(o, "{\"displayTimeUnit\":\"ns\",\"systemTraceEvents\":\"");
	f2t_ftext_header(&p->text, w->info, &p->link);
	return o->err ? o->err : ev->err;
}

static int json_item(struct f2t_writer *w, const struct f2t_item *it)
{
	return json_write_item(w, it);
}

static int json_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct json_priv *p = w->priv;

	switch (ev->kind) {
	case F2T_EV_PRINT:
		/* traceEvents only: the viewers would draw markers twice. */
		return 0;
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		p->not_in_text++;
		return 0;
	default:
		f2t_ftext_event(&p->text, ev);
		return w->out->err;
	}
}

/* One metadata event: {"name":KIND,"ph":"M","pid":..,"tid":..,"args":{KEY:..}} */
static void meta_event(struct f2t_out *o, const char *kind, int32_t pid, int32_t tid,
		       const char *name, int64_t sort_index)
{
	f2t_out_puts(o, ",\n{\"name\":\"");
	f2t_out_puts(o, kind);
	f2t_out_puts(o, "\",\"ph\":\"M\",\"pid\":");
	f2t_json_put_i64(o, pid);
	f2t_out_puts(o, ",\"tid\":");
	f2t_json_put_i64(o, tid);
	if (name) {
		f2t_out_puts(o, ",\"args\":{\"name\":");
		f2t_json_put_string(o, name, strnlen(name, F2T_COMM_LEN));
	} else {
		f2t_out_puts(o, ",\"args\":{\"sort_index\":");
		f2t_json_put_i64(o, sort_index);
	}
	f2t_out_puts(o, "}}");
}

struct proc {
	const struct f2t_task *leader;
	uint64_t cpu_ns;
};

struct proc_list {
	struct proc *v;
	size_t n, cap;
	const struct f2t_cputime *cputime;
};

static int collect_leader(const struct f2t_task *t, void *ctx)
{
	struct proc_list *l = ctx;

	if (t->tid <= 0 || t->tid != t->tgid)
		return 0;
	if (f2t_vec_reserve(&l->v, &l->cap, l->n + 1, 256))
		return -ENOMEM;
	l->v[l->n].leader = t;
	l->v[l->n].cpu_ns = 0;
	l->n++;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	int32_t x = ((const struct proc *)a)->leader->tgid;
	int32_t y = ((const struct proc *)b)->leader->tgid;

	return (x > y) - (x < y);
}

static int by_cpu_then_pid(const void *a, const void *b)
{
	const struct proc *x = a, *y = b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? 1 : -1;
	return by_pid(a, b);
}

/* Adds a thread's CPU time to its process (the list is sorted by pid). */
static int sum_thread(const struct f2t_task *t, void *ctx)
{
	struct proc_list *l = ctx;
	struct f2t_task key = { .tgid = t->tgid };
	struct proc k = { .leader = &key }, *hit;
	uint64_t ns = f2t_cputime_of(l->cputime, t);

	if (!ns)
		return 0;
	hit = bsearch(&k, l->v, l->n, sizeof(*l->v), by_pid);
	if (hit)
		hit->cpu_ns += ns;
	return 0;
}

static int name_thread(const struct f2t_task *t, void *ctx)
{
	struct f2t_writer *w = ctx;

	if (t->tid <= 0)
		return 0;	/* the per-CPU idle tasks: not one thread */
	if (named(t))
		meta_event(w->out, "thread_name", t->tgid, t->tid, t->comm, 0);
	/* The main thread first, then the others in creation (tid) order. */
	meta_event(w->out, "thread_sort_index", t->tgid, t->tid, NULL,
		   t->tid == t->tgid ? 0 : t->tid);
	return 0;
}

/*
 * Names for every process and thread the task table knows, kernel threads
 * included.  Processes are ranked by the CPU time their threads used during
 * the recording, so what was being measured comes first, not pid 1.
 */
static int write_names(struct f2t_writer *w)
{
	struct proc_list l = { .cputime = f2t_model_cputime(w->model) };
	int ret;

	ret = f2t_tasks_each(w->tasks, collect_leader, &l);
	if (ret)
		goto out;
	if (l.n) {	/* sum_thread()'s bsearch() must not be handed the NULL of an empty list */
		f2t_sort(l.v, l.n, sizeof(*l.v), by_pid);
		f2t_tasks_each(w->tasks, sum_thread, &l);
		f2t_sort(l.v, l.n, sizeof(*l.v), by_cpu_then_pid);
	}
	for (size_t i = 0; i < l.n; i++) {
		const struct f2t_task *t = l.v[i].leader;

		if (named(t))
			meta_event(w->out, "process_name", t->tgid, t->tid, t->comm, 0);
		meta_event(w->out, "process_sort_index", t->tgid, t->tid, NULL, (int64_t)i);
	}
	ret = f2t_tasks_each(w->tasks, name_thread, w);
out:
	free(l.v);
	return ret;
}

static void kv_str(struct f2t_out *o, const char *key, const char *v)
{
	f2t_out_puts(o, ",\"");
	f2t_out_puts(o, key);
	f2t_out_puts(o, "\":");
	f2t_json_put_string(o, v ? v : "", v ? strlen(v) : 0);
}

static void kv_num(struct f2t_out *o, const char *key, uint64_t v)
{
	f2t_out_puts(o, ",\"");
	f2t_out_puts(o, key);
	f2t_out_puts(o, "\":");
	f2t_json_put_u64(o, v);
}

/* One recorder sync point: id, the kernel's time for it, the clocks read with it. */
static void sync_point(struct f2t_out *o, const char *which, const struct f2t_sync_point *pt,
		       uint64_t trace_ns)
{
	char k[48];

	if (!pt->id || !*pt->id)
		return;
	snprintf(k, sizeof(k), "sync_%s_id", which);
	kv_str(o, k, pt->id);
	snprintf(k, sizeof(k), "sync_%s_trace_ns", which);
	kv_num(o, k, trace_ns);
	snprintf(k, sizeof(k), "sync_%s_mono_ns", which);
	kv_num(o, k, pt->mono_ns);
	snprintf(k, sizeof(k), "sync_%s_realtime_ns", which);
	kv_num(o, k, pt->realtime_ns);
	snprintf(k, sizeof(k), "sync_%s_boottime_ns", which);
	kv_num(o, k, pt->boottime_ns);
}

/* The recording's facts, then every count of the run (model/stats.h), then this file's own. */
static void write_other_data(struct f2t_writer *w, const struct f2t_stats *st)
{
	const struct f2t_trace_info *info = w->info;
	struct json_priv *p = w->priv;
	struct f2t_out *o = w->out;
	struct f2t_identity id;

	f2t_identity_of(info, &id);
	f2t_out_puts(o, ",\n\"otherData\":{\"version\":\"ftrace2trace JSON 1\"");
	f2t_json_put_identity(o, &id, false);
	kv_num(o, "stop_ns", info->stop_ns);
	kv_num(o, "start_boottime_ns", info->boottime_ns);
	kv_str(o, "clock_sync_id", p->link.sync_id);
	if (w->rec->sampling.event) {
		/* What the samples are: event, rate on each CPU, whose were kept. */
		kv_str(o, "sample_event", w->rec->sampling.event);
		kv_num(o, "sample_freq", w->rec->sampling.freq);
		kv_str(o, "sample_scope", w->rec->sampling.scope ? w->rec->sampling.scope : "");
	}
	sync_point(o, "start", &info->sync_start, st->sync_start_trace_ns);
	sync_point(o, "end", &info->sync_end, st->sync_end_trace_ns);
	for (size_t i = 0; i < f2t_stat_count; i++)
		kv_num(o, f2t_stat_list[i].name, f2t_stat_value(st, &f2t_stat_list[i]));
	kv_num(o, "ftrace_lines", p->text.lines);
	kv_num(o, "lost_event_notes", p->text.lost);
	kv_num(o, "events_without_text", p->text.no_text);
	kv_num(o, "lines_with_breaks_replaced", p->text.patched);
	kv_num(o, "lines_with_flags_for_trace_viewer", p->text.flags_mapped);
	kv_num(o, "kernel_lines_not_in_text", p->not_in_text);
	f2t_out_puts(o, "}}\n");
}

/*
 * Closes every bracket whatever happened before: a recording stopped by
 * SIGINT reaches here too, after the capture has been drained.
 */
static int json_end(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct json_priv *p = w->priv;
	struct f2t_out *o = w->out;
	int ret;

	f2t_out_puts(o, "\",\n\"traceEvents\":[\n");
	ret = f2t_spool_copy(&p->events, o);
	if (!ret)
		ret = write_names(w);
	f2t_out_puts(o, "\n]");
	if (!ret)
		ret = json_write_samples(w);
	write_other_data(w, st);
	return ret ? ret : o->err;
}

static void json_destroy(struct f2t_writer *w)
{
	struct json_priv *p = w->priv;

	if (!p)
		return;
	f2t_spool_close(&p->events);
	f2t_spool_close(&p->sample_spool);
	f2t_spool_close(&p->node_spool);
	f2t_stack_text_free(p->stacks);
	free(p);
	w->priv = NULL;
}

static const struct f2t_writer_ops json_ops = {
	.name = "json",
	.begin = json_begin,
	.item = json_item,
	.event = json_event,
	.end = json_end,
	.destroy = json_destroy,
};

/**
 * f2t_json_writer_init() - make W write Chrome Trace Event Format JSON
 * @w: the writer; out, info, tasks and model already set
 *
 * Opens the spool for traceEvents next to the output file.
 *
 * Return: 0 or negative errno.
 */
int f2t_json_writer_init(struct f2t_writer *w)
{
	struct json_priv *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	p->events.fd = -1;
	p->sample_spool.fd = -1;
	p->node_spool.fd = -1;
	p->stacks = f2t_stack_text_new();
	ret = p->stacks ? f2t_spool_open(&p->events, w->out) : -ENOMEM;
	if (ret) {
		f2t_stack_text_free(p->stacks);
		free(p);
		return ret;
	}
	f2t_ftext_init(&p->text, w->out, f2t_json_put_escaped, w->tasks);
	p->text.viewer_flags = true;
	w->ops = &json_ops;
	w->priv = p;
	return 0;
}
