// SPDX-License-Identifier: MIT
/*
 * The FXT writer: scheduling as context switch and thread wakeup records,
 * names as kernel object records, other tracepoints as instant events,
 * trace_marker writes as slices, counters and instants (fxt_marker.c),
 * function calls, irq handlers, idle and frequency as slices, instants and
 * counters (fxt_kernel.c).  What Perfetto makes of each is in shared/VIEWERS.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"
#include "fxt/fxt_enc.h"
#include "fxt/fxt_kernel.h"
#include "fxt/fxt_marker.h"
#include "fxt/fxt_prof.h"
#include "fxt/fxt_state.h"
#include "fxt/fxt_tables.h"
#include "output/writer.h"

#define PROVIDER_ID	1u
#define PROVIDER_NAME	"ftrace2trace"
#define MAX_NAME_LEN	256	/* marker text longer than this is cut */

/* String indices this writer keeps for itself; the table hands out the rest. */
enum {
	S_FTRACE = 1,
	S_OUTGOING_WEIGHT,
	S_INCOMING_WEIGHT,
	S_WEIGHT,
	S_WAKER,
	S_LINUX_STATE,
	S_PROCESS,
	S_FIRST_DYNAMIC = 16,
};

static const char *const constant_strings[] = {
	[S_FTRACE] = "ftrace",
	[S_OUTGOING_WEIGHT] = "outgoing_weight",
	[S_INCOMING_WEIGHT] = "incoming_weight",
	[S_WEIGHT] = "weight",
	[S_WAKER] = "waker",
	[S_LINUX_STATE] = "linux_state",
	[S_PROCESS] = "process",
};

struct fxt_priv {
	struct fxt_strtab *strs;
	struct fxt_thrtab *threads;
	struct fxt_prof *prof;		/* modules and mappings already written */
	struct fxt_markers *markers;	/* trace_marker writes: fxt_marker.c */
	struct fxt_kernel *kern;	/* functions, irqs, idle, frequency: fxt_kernel.c */
	bool lost_written;
	uint64_t last_ts;	/* of the last event, for records written at the end */
	uint64_t rec[FXT_MAX_RECORD_WORDS];
};

static inline void emit(struct f2t_writer *w, const uint64_t *words, int n)
{
	f2t_out_write(w->out, words, (size_t)n * sizeof(uint64_t));
}

/* Writes the record an encoder just put in the scratch buffer, or passes its error on. */
static inline int emit_encoded(struct f2t_writer *w, int words)
{
	struct fxt_priv *p = w->priv;

	if (words < 0)
		return words;
	emit(w, p->rec, words);
	return 0;
}

/* A ref for S, writing its string record first when the index is new. */
static int string_ref(struct f2t_writer *w, const char *s, size_t len, struct fxt_str *ref)
{
	struct fxt_priv *p = w->priv;
	bool fresh;
	int idx;

	if (len == 0) {
		*ref = fxt_str_index(0);
		return 0;
	}
	if (len > FXT_MAX_STRING_LEN)
		len = FXT_MAX_STRING_LEN;
	idx = fxt_strtab_intern(p->strs, s, len, &fresh);
	if (idx < 0)
		return idx;
	if (fresh)
		emit(w, p->rec, fxt_string(p->rec, (uint16_t)idx, s, len));
	*ref = fxt_str_index((uint16_t)idx);
	return 0;
}

static int thread_ref(struct f2t_writer *w, uint64_t pid, uint64_t tid,
		      struct fxt_thread *ref)
{
	struct fxt_priv *p = w->priv;
	bool fresh;
	int idx = fxt_thrtab_intern(p->threads, pid, tid, &fresh);

	if (fresh)
		emit(w, p->rec, fxt_thread_record(p->rec, (uint8_t)idx, pid, tid));
	*ref = fxt_thread_index((uint8_t)idx);
	return 0;
}

/* A task whose process is not known yet is its own process, as /proc would say. */
static inline uint64_t process_koid(const struct f2t_task *t)
{
	return (uint64_t)(t->tgid > 0 ? t->tgid : t->tid);
}

static int object_record(struct f2t_writer *w, uint8_t type, const struct f2t_task *t)
{
	struct fxt_priv *p = w->priv;
	uint64_t argw[2];
	struct fxt_args args = { .words = argw };
	struct fxt_str name;
	int ret;

	ret = string_ref(w, t->comm, strnlen(t->comm, F2T_COMM_LEN), &name);
	if (ret)
		return ret;
	if (type == FXT_OBJ_THREAD) {
		args.nwords = (uint16_t)fxt_arg_koid(argw, fxt_str_index(S_PROCESS),
						     process_koid(t));
		args.count = 1;
	}
	ret = fxt_kernel_object(p->rec, type,
				type == FXT_OBJ_PROCESS ? process_koid(t) : (uint64_t)t->tid,
				name, &args);
	return emit_encoded(w, ret);
}

/* Names T's thread and, when T is its process's main thread, the process. */
static int announce_one(struct f2t_writer *w, struct f2t_task *t)
{
	int ret = 0;

	if (process_koid(t) == (uint64_t)t->tid)
		ret = object_record(w, FXT_OBJ_PROCESS, t);
	if (!ret)
		ret = object_record(w, FXT_OBJ_THREAD, t);
	if (!ret)
		t->announced[w->slot] = t->gen;
	return ret;
}

static int announce(struct f2t_writer *w, struct f2t_task *t)
{
	/* The idle tasks all share pid 0; viewers know them from their weight. */
	if (t->tid <= 0) {
		t->announced[w->slot] = t->gen;
		return 0;
	}
	if (t->tgid != t->tid && t->tgid > 0) {
		/*
		 * The process is named after its main thread.  When that thread
		 * is unknown the thread record's "process" koid still groups
		 * the thread, and no made-up name is written.
		 */
		struct f2t_task *leader = f2t_tasks_find(w->tasks, t->tgid);

		if (leader && leader->tgid == leader->tid &&
		    leader->announced[w->slot] != leader->gen) {
			int ret = announce_one(w, leader);

			if (ret)
				return ret;
		}
	}
	return announce_one(w, t);
}

/* Makes sure the viewer knows TID's current name before a record uses it. */
static inline int ensure_named(struct f2t_writer *w, int32_t tid, struct f2t_task **out)
{
	struct f2t_task *t;

	t = f2t_tasks_get(w->tasks, tid);
	if (!t)
		return -ENOMEM;
	if (out)
		*out = t;
	if (t->announced[w->slot] == t->gen)
		return 0;
	return announce(w, t);
}

static int announce_each(struct f2t_task *t, void *ctx)
{
	struct f2t_writer *w = ctx;

	if (t->announced[w->slot] == t->gen)
		return 0;
	return announce(w, t);
}

static int fxt_begin(struct f2t_writer *w)
{
	struct fxt_priv *p = w->priv;
	uint64_t *r = p->rec;
	int n = 0;

	n += fxt_magic(r + n);
	n += fxt_provider_info(r + n, PROVIDER_ID, PROVIDER_NAME, strlen(PROVIDER_NAME));
	n += fxt_provider_section(r + n, PROVIDER_ID);
	n += fxt_init(r + n, 1000000000ull);
	for (unsigned int i = 1; i < sizeof(constant_strings) / sizeof(constant_strings[0]); i++)
		n += fxt_string(r + n, (uint16_t)i, constant_strings[i],
				strlen(constant_strings[i]));
	emit(w, r, n);
	return f2t_tasks_each(w->tasks, announce_each, w);
}

static inline int32_t weight(int32_t pid, int32_t prio)
{
	/* Perfetto takes INT32_MIN as "this is the idle thread". */
	return pid == 0 ? INT32_MIN : prio;
}

static int write_switch(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_priv *p = w->priv;
	char state[F2T_STATE_LEN + 1];
	uint64_t argw[3];
	struct fxt_args args = { .words = argw, .nwords = 2, .count = 2 };
	bool canonical;
	int fstate, ret;

	memcpy(state, ev->sw.prev_state, F2T_STATE_LEN);
	state[F2T_STATE_LEN] = '\0';
	fstate = fxt_linux_state(state, &canonical);
	ret = ensure_named(w, ev->sw.prev_pid, NULL);
	if (!ret)
		ret = ensure_named(w, ev->sw.next_pid, NULL);
	if (ret)
		return ret;
	fxt_arg_int32(argw, fxt_str_index(S_OUTGOING_WEIGHT),
		      weight(ev->sw.prev_pid, ev->sw.prev_prio));
	fxt_arg_int32(argw + 1, fxt_str_index(S_INCOMING_WEIGHT),
		      weight(ev->sw.next_pid, ev->sw.next_prio));
	if (!canonical && state[0]) {
		/* D, I, t, P...: FXT has no letter for these; keep Linux's. */
		struct fxt_str v;

		ret = string_ref(w, state, strlen(state), &v);
		if (ret)
			return ret;
		args.nwords += (uint16_t)fxt_arg_string(argw + 2, fxt_str_index(S_LINUX_STATE), v);
		args.count++;
	}
	ret = fxt_context_switch(p->rec, (uint16_t)ev->cpu, (uint8_t)fstate, ev->ts,
				 (uint64_t)ev->sw.prev_pid, (uint64_t)ev->sw.next_pid, &args);
	return emit_encoded(w, ret);
}

static int write_wakeup(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_priv *p = w->priv;
	uint64_t argw[3];
	struct fxt_args args = { .words = argw, .count = 2 };
	int32_t cpu = ev->wake.target_cpu >= 0 ? ev->wake.target_cpu : (int32_t)ev->cpu;
	int ret;

	ret = ensure_named(w, ev->wake.pid, NULL);
	if (!ret)
		ret = ensure_named(w, ev->pid, NULL);
	if (ret)
		return ret;
	args.nwords = (uint16_t)fxt_arg_int32(argw, fxt_str_index(S_WEIGHT),
					      weight(ev->wake.pid, ev->wake.prio));
	args.nwords += (uint16_t)fxt_arg_koid(argw + args.nwords, fxt_str_index(S_WAKER),
					      (uint64_t)ev->pid);
	ret = fxt_thread_wakeup(p->rec, (uint16_t)cpu, ev->ts, (uint64_t)ev->wake.pid, &args);
	return emit_encoded(w, ret);
}

/* Other tracepoints: an instant event on the thread that hit them (markers: fxt_marker.c). */
static int write_instant(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_priv *p = w->priv;
	struct fxt_event_head e = { .ts = ev->ts, .category = fxt_str_index(S_FTRACE) };
	struct fxt_args fields;
	struct f2t_task *t;
	char name[MAX_NAME_LEN];
	int ret, n;
	size_t len;

	ret = ensure_named(w, ev->pid, &t);
	if (ret)
		return ret;
	n = snprintf(name, sizeof(name), "%s:%s", ev->other.system ? ev->other.system : "?",
		     ev->other.name ? ev->other.name : "?");
	len = n < 0 ? 0 : (size_t)n < sizeof(name) ? (size_t)n : sizeof(name) - 1;
	ret = string_ref(w, name, len, &e.name);
	if (!ret)
		ret = fxt_kernel_fields(p->kern, w, ev, &fields);
	if (ret)
		return ret;
	e.args = &fields;
	ret = thread_ref(w, process_koid(t), (uint64_t)t->tid, &e.thread);
	if (ret)
		return ret;
	ret = fxt_instant(p->rec, &e);
	return emit_encoded(w, ret);
}

static int write_lost(struct f2t_writer *w)
{
	struct fxt_priv *p = w->priv;

	p->lost_written = true;
	emit(w, p->rec, fxt_provider_event(p->rec, PROVIDER_ID,
					   FXT_PROVIDER_EVENT_BUFFER_FILLED));
	return 0;
}

/*
 * The module record for F's module and the mmap record for F's mapping in
 * process PID, the first time a backtrace needs them.  Module records name
 * the process that first mapped the module (thread koid 0, as the spec has it).
 */
static int describe_frame(struct f2t_writer *w, uint64_t ts, int32_t pid,
			  const struct f2t_frame *f)
{
	struct fxt_priv *p = w->priv;
	const struct f2t_module *m = f->mod;
	struct fxt_thread proc = fxt_thread_inline((uint64_t)pid, 0);
	int ret;

	if (!m || m->id > UINT16_MAX)
		return 0;	/* no module (or more than FXT can number): raw address only */
	ret = fxt_prof_first_module(p->prof, m->id);
	if (ret > 0) {
		size_t len = strlen(m->name);
		/* A name longer than FXT allows keeps its end: the file name. */
		const char *name = len > 255 ? m->name + len - 255 : m->name;

		ret = fxt_profiler_module(p->rec, ts, proc, (uint16_t)m->id, name,
					  len > 255 ? 255 : len, m->build_id.b, m->build_id.len);
		if (ret < 0)
			return ret;
		emit(w, p->rec, ret);
	}
	if (ret < 0)
		return ret;
	ret = fxt_prof_first_mmap(p->prof, pid, f->map_start, m->id);
	if (ret > 0) {
		/* Only executable mappings are tracked: r-x. */
		ret = fxt_profiler_mmap(p->rec, ts, proc, (uint16_t)m->id, 5, f->map_start,
					f->map_len, f->map_vaddr);
		if (ret < 0)
			return ret;
		emit(w, p->rec, ret);
	}
	return ret < 0 ? ret : 0;
}

/* A CPU sample: what its frames need described, then one backtrace record. */
static int write_sample(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_priv *p = w->priv;
	uint64_t ips[255];
	size_t n = ev->sample.nframes < 255 ? ev->sample.nframes : 255;
	int32_t pid = ev->sample.tgid > 0 ? ev->sample.tgid : ev->pid;
	struct fxt_thread thread;
	int ret;

	ret = ensure_named(w, ev->pid, NULL);
	for (size_t i = 0; !ret && i < n; i++) {
		ips[i] = ev->sample.frames[i].ip;
		ret = describe_frame(w, ev->ts, pid, &ev->sample.frames[i]);
	}
	if (!ret)
		ret = thread_ref(w, (uint64_t)(pid > 0 ? pid : 0), (uint64_t)(ev->pid > 0 ? ev->pid : 0),
				 &thread);
	if (!ret)
		ret = fxt_profiler_backtrace(p->rec, ev->ts, thread, ips, n);
	return emit_encoded(w, ret);
}

/* What fxt_marker.c borrows to write marker records into this file. */
static const struct fxt_marker_io marker_io = {
	.string_ref = string_ref,
	.thread_ref = thread_ref,
	.ensure_named = ensure_named,
	.emit = emit,
};

/* What fxt_kernel.c borrows, likewise. */
static const struct fxt_kernel_io kernel_io = {
	.string_ref = string_ref,
	.thread_ref = thread_ref,
	.ensure_named = ensure_named,
	.emit = emit,
};

static int fxt_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	((struct fxt_priv *)w->priv)->last_ts = ev->ts;
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		return write_switch(w, ev);
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP_NEW:
		return write_wakeup(w, ev);
	case F2T_EV_PRINT:
		return fxt_markers_event(((struct fxt_priv *)w->priv)->markers, w, ev);
	case F2T_EV_OTHER:
		return write_instant(w, ev);
	case F2T_EV_LOST: {
		int ret = fxt_kernel_event(((struct fxt_priv *)w->priv)->kern, w, ev);

		return ret ? ret : write_lost(w);
	}
	case F2T_EV_FUNCTION:
	case F2T_EV_FUNCGRAPH_ENTRY:
	case F2T_EV_FUNCGRAPH_EXIT:
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		return fxt_kernel_event(((struct fxt_priv *)w->priv)->kern, w, ev);
	case F2T_EV_SAMPLE:
		return write_sample(w, ev);
	default:
		/*
		 * sched_wakeup repeats what sched_waking said; fork, exec,
		 * exit and rename reach the trace as names, via the task table.
		 */
		return 0;
	}
}

/*
 * The run's counts, as one instant event "ftrace2trace_stats" on the idle
 * thread at the end of the trace, so what was lost or inconsistent travels
 * with the file (Perfetto shows it as a slice with these arguments).
 */
static int write_stats(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct fxt_priv *p = w->priv;
	const struct { const char *name; uint64_t value; } counts[] = {
		{ "events", st->total_events },
		{ "lost_events", st->lost_events },
		{ "kernel_overrun", st->kernel_overrun },
		{ "kernel_dropped", st->kernel_dropped },
		{ "sched_gaps", st->sched_gaps },
		{ "unknown_events", st->unknown_events },
		{ "bad_records", st->bad_records },
		{ "samples", st->events[F2T_EV_SAMPLE] },
		{ "samples_lost", st->samples_lost },
		{ "records", st->records },
		{ "kernel_read", st->kernel_read },
		{ "sample_throttles", st->sample_throttles },
		{ "unwind_samples", st->unwind_samples },
		{ "unwind_leaf_only", st->unwind_leaf_only },
	};
	uint64_t argw[2 * sizeof(counts) / sizeof(counts[0])];
	struct fxt_args args = { .words = argw };
	struct fxt_event_head e = {
		.ts = w->info->stop_ns ? w->info->stop_ns : p->last_ts,
		.thread = fxt_thread_inline(0, 0),
		.args = &args,
	};
	int ret;

	ret = string_ref(w, "ftrace2trace", strlen("ftrace2trace"), &e.category);
	if (!ret)
		ret = string_ref(w, "ftrace2trace_stats", strlen("ftrace2trace_stats"), &e.name);
	for (size_t i = 0; !ret && i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct fxt_str name;

		ret = string_ref(w, counts[i].name, strlen(counts[i].name), &name);
		if (!ret)
			ret = fxt_arg_uint64(argw + args.nwords, name, counts[i].value);
		if (ret > 0) {
			args.nwords = (uint16_t)(args.nwords + ret);
			args.count++;
			ret = 0;
		}
	}
	if (!ret)
		ret = fxt_instant(p->rec, &e);
	return emit_encoded(w, ret);
}

static int fxt_end(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct fxt_priv *p = w->priv;
	int ret;

	/* Losses the kernel counted but no event reported still get a mark. */
	if (!p->lost_written && (st->lost_events || st->kernel_overrun || st->kernel_dropped))
		write_lost(w);
	ret = fxt_markers_end(p->markers, w, w->info->stop_ns ? w->info->stop_ns : p->last_ts);
	if (!ret)
		ret = write_stats(w, st);
	return ret ? ret : w->out->err;
}

static void fxt_destroy(struct f2t_writer *w)
{
	struct fxt_priv *p = w->priv;

	if (!p)
		return;
	fxt_strtab_free(p->strs);
	fxt_thrtab_free(p->threads);
	fxt_prof_free(p->prof);
	fxt_markers_free(p->markers);
	fxt_kernel_free(p->kern);
	free(p);
	w->priv = NULL;
}

static const struct f2t_writer_ops fxt_ops = {
	.name = "fxt",
	.begin = fxt_begin,
	.event = fxt_event,
	.end = fxt_end,
	.destroy = fxt_destroy,
};

int f2t_fxt_writer_init(struct f2t_writer *w)
{
	struct fxt_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->strs = fxt_strtab_new(S_FIRST_DYNAMIC, FXT_MAX_STRING_INDEX);
	p->threads = fxt_thrtab_new(1, FXT_MAX_THREAD_INDEX);
	p->prof = fxt_prof_new();
	p->markers = fxt_markers_new(&marker_io);
	p->kern = fxt_kernel_new(&kernel_io);
	if (!p->strs || !p->threads || !p->prof || !p->markers || !p->kern) {
		fxt_strtab_free(p->strs);
		fxt_thrtab_free(p->threads);
		fxt_prof_free(p->prof);
		fxt_markers_free(p->markers);
		fxt_kernel_free(p->kern);
		free(p);
		return -ENOMEM;
	}
	w->ops = &fxt_ops;
	w->priv = p;
	return 0;
}
