// SPDX-License-Identifier: MIT
/*
 * The FXT writer: scheduling as context switch and thread wakeup records,
 * names as kernel object records, the model's items as event records and
 * CPU samples as profiler records (fxt_items.c), the recording's identity
 * (fxt_identity.c) and the run's counts as instants at the end.  What Perfetto makes of each: docs/viewers.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt/fxt_state.h"
#include "fxt/fxt_writer-local.h"
#include "util/vec.h"

/* A scheduling record's CPU field is 16 bits wide. */
#define FXT_CPU_MAX	0xffffu
#define PROVIDER_ID	1u
#define PROVIDER_NAME	"ftrace2trace"
/* Perfetto packets per blob record: what a record of 4095 words holds, rounded. */
#define PERFETTO_BLOB	32000u
#define BLOB_PERFETTO	3

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

int fxt_string_ref(struct f2t_writer *w, const char *s, size_t len, struct fxt_str *ref)
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
		fxt_emit(w, p->rec, fxt_string(p->rec, (uint16_t)idx, s, len));
	*ref = fxt_str_index((uint16_t)idx);
	return 0;
}

int fxt_category_ref(struct f2t_writer *w, struct f2t_str cat, struct fxt_str *ref)
{
	for (unsigned int i = 1; i < sizeof(constant_strings) / sizeof(constant_strings[0]); i++) {
		if (cat.len == strlen(constant_strings[i]) &&
		    !memcmp(cat.s, constant_strings[i], cat.len)) {
			*ref = fxt_str_index((uint16_t)i);
			return 0;
		}
	}
	return fxt_string_ref(w, cat.s, cat.len, ref);
}

int fxt_thread_ref(struct f2t_writer *w, uint64_t pid, uint64_t tid, struct fxt_thread *ref)
{
	struct fxt_priv *p = w->priv;
	bool fresh;
	int idx = fxt_thrtab_intern(p->threads, pid, tid, &fresh);

	if (fresh)
		fxt_emit(w, p->rec, fxt_thread_record(p->rec, (uint8_t)idx, pid, tid));
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

	ret = fxt_string_ref(w, t->comm, strnlen(t->comm, F2T_COMM_LEN), &name);
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
	return fxt_emit_encoded(w, ret);
}

/*
 * The generation of @t's name the file holds.  A tid named before the table
 * knew it was named as the table makes a new task (generation 1): the same
 * as @t's until the tracker changes it.
 */
static uint32_t named_gen(const struct fxt_priv *p, const struct f2t_task *t)
{
	uint32_t gen = t->seq < p->nnamed ? p->named[t->seq] : 0;

	return !gen && p->unknown.n && f2t_idmap_find(&p->unknown, t->tid) ? 1 : gen;
}

static int set_named(struct fxt_priv *p, const struct f2t_task *t)
{
	if (t->seq >= p->nnamed) {
		if (f2t_vec_reserve(&p->named, &p->named_cap, (size_t)t->seq + 1, 1024))
			return -ENOMEM;
		/* All of the room zeroed: a reserve per new task, not a memset. */
		memset(p->named + p->nnamed, 0, (p->named_cap - p->nnamed) * sizeof(*p->named));
		p->nnamed = p->named_cap;
	}
	p->named[t->seq] = t->gen;
	return 0;
}

/* Names T's thread and, when T is its process's main thread, the process. */
static int announce_one(struct f2t_writer *w, const struct f2t_task *t)
{
	int ret = 0;

	if (process_koid(t) == (uint64_t)t->tid)
		ret = object_record(w, FXT_OBJ_PROCESS, t);
	if (!ret)
		ret = object_record(w, FXT_OBJ_THREAD, t);
	return ret;
}

/* A tid the task table does not know (a CPU's pseudo thread): named once. */
static int announce_unknown(struct f2t_writer *w, int32_t tid)
{
	struct fxt_priv *p = w->priv;
	struct f2t_task t;
	bool fresh;

	if (!f2t_idmap_get(&p->unknown, tid, &fresh))
		return -ENOMEM;
	if (!fresh)
		return 0;
	f2t_task_init(&t, tid);
	return announce_one(w, &t);
}

int fxt_announce(struct f2t_writer *w, int32_t tid, const struct f2t_task *t)
{
	struct fxt_priv *p = w->priv;
	int ret = 0;

	if (!t)
		return announce_unknown(w, tid);
	if (named_gen(p, t) == t->gen)
		return set_named(p, t);
	if (t->tid > 0 && t->tgid != t->tid && t->tgid > 0) {
		/*
		 * The process is named after its main thread.  When that thread
		 * is unknown the thread record's "process" koid still groups
		 * the thread, and no made-up name is written.
		 */
		const struct f2t_task *leader = f2t_tasks_find(w->tasks, t->tgid);

		if (leader && leader->tgid == leader->tid && named_gen(p, leader) != leader->gen)
			ret = announce_one(w, leader) ?: set_named(p, leader);
	}
	/* The idle tasks all share pid 0; viewers know them from their weight. */
	if (!ret && t->tid > 0)
		ret = announce_one(w, t);
	return ret ?: set_named(p, t);
}

static int announce_each(const struct f2t_task *t, void *ctx)
{
	struct f2t_writer *w = ctx;

	return named_gen(w->priv, t) == t->gen ? 0 : fxt_announce(w, t->tid, t);
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
	fxt_emit(w, r, n);
	fxt_identity_packets(w);
	return f2t_tasks_each(w->tasks, announce_each, w);
}

static inline int32_t weight(int32_t pid, int32_t prio)
{
	/* Perfetto takes INT32_MIN as "this is the idle thread". */
	return pid == 0 ? INT32_MIN : prio;
}

/* Scheduling records hold a CPU in 16 bits: a bigger one cannot be written. */
static int cpu_too_big(struct f2t_writer *w, uint32_t cpu)
{
	snprintf(w->why, sizeof(w->why), "CPU %u: FXT holds CPUs up to %u", cpu, FXT_CPU_MAX);
	return -ERANGE;
}

static int write_switch(struct f2t_writer *w, const struct f2t_event *ev)
{
	char state[F2T_STATE_LEN + 1];
	struct fxt_args args = { .nwords = 2, .count = 2 };
	struct fxt_str linux_state;
	uint64_t *rec;
	bool canonical;
	int fstate, ret;

	if (ev->cpu > FXT_CPU_MAX)
		return cpu_too_big(w, ev->cpu);
	memcpy(state, ev->sw.prev_state, F2T_STATE_LEN);
	state[F2T_STATE_LEN] = '\0';
	fstate = fxt_linux_state(state, &canonical);
	ret = fxt_ensure_named(w, ev->sw.prev_pid);
	if (!ret)
		ret = fxt_ensure_named(w, ev->sw.next_pid);
	/* D, I, t, P...: FXT has no letter for these; keep Linux's. */
	canonical = canonical || !state[0];
	if (!ret && !canonical)
		ret = fxt_string_ref(w, state, strlen(state), &linux_state);
	if (ret)
		return ret;
	rec = fxt_room(w, 4 + 3);	/* the record's 4 words, then up to 3 of arguments */
	args.words = rec + 4;
	fxt_arg_int32(rec + 4, fxt_str_index(S_OUTGOING_WEIGHT),
		      weight(ev->sw.prev_pid, ev->sw.prev_prio));
	fxt_arg_int32(rec + 5, fxt_str_index(S_INCOMING_WEIGHT),
		      weight(ev->sw.next_pid, ev->sw.next_prio));
	if (!canonical) {
		args.nwords += (uint16_t)fxt_arg_string(rec + 6, fxt_str_index(S_LINUX_STATE),
							linux_state);
		args.count++;
	}
	ret = fxt_context_switch(rec, (uint16_t)ev->cpu, (uint8_t)fstate, ev->ts,
				 (uint64_t)ev->sw.prev_pid, (uint64_t)ev->sw.next_pid, &args);
	return fxt_commit(w, ret);
}

static int write_wakeup(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_args args = { .count = 2 };
	int32_t cpu = ev->wake.target_cpu >= 0 ? ev->wake.target_cpu : (int32_t)ev->cpu;
	uint64_t *rec;
	int ret;

	/*
	 * A target CPU past 16 bits is a field's value (a damaged record, a
	 * text's typo): the wakeup goes on the CPU that recorded it, as when
	 * the field says none.  That CPU itself must fit.
	 */
	if ((uint32_t)cpu > FXT_CPU_MAX)
		cpu = (int32_t)ev->cpu;
	if (ev->cpu > FXT_CPU_MAX)
		return cpu_too_big(w, ev->cpu);
	ret = fxt_ensure_named(w, ev->wake.pid);
	if (!ret)
		ret = fxt_ensure_named(w, ev->pid);
	if (ret)
		return ret;
	rec = fxt_room(w, 3 + 3);	/* the record's 3 words, then weight (1) and waker (2) */
	args.words = rec + 3;
	args.nwords = (uint16_t)fxt_arg_int32(rec + 3, fxt_str_index(S_WEIGHT),
					      weight(ev->wake.pid, ev->wake.prio));
	args.nwords += (uint16_t)fxt_arg_koid(rec + 3 + args.nwords, fxt_str_index(S_WAKER),
					      (uint64_t)ev->pid);
	ret = fxt_thread_wakeup(rec, (uint16_t)cpu, ev->ts, (uint64_t)ev->wake.pid, &args);
	return fxt_commit(w, ret);
}

static int write_lost(struct f2t_writer *w)
{
	struct fxt_priv *p = w->priv;

	p->lost_written = true;
	fxt_emit(w, p->rec, fxt_provider_event(p->rec, PROVIDER_ID,
					       FXT_PROVIDER_EVENT_BUFFER_FILLED));
	return 0;
}

static int fxt_item(struct f2t_writer *w, const struct f2t_item *it)
{
	((struct fxt_priv *)w->priv)->last_ts = it->ts;
	return fxt_write_item(w, it);
}

static int fxt_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	((struct fxt_priv *)w->priv)->last_ts = ev->ts;
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		return write_switch(w, ev);
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP_NEW:
		return write_wakeup(w, ev);
	case F2T_EV_LOST:
		return write_lost(w);
	default:
		/*
		 * sched_wakeup repeats what sched_waking said; fork, exec,
		 * exit and rename reach the trace as names, via the task
		 * table; the rest arrived as items.
		 */
		return 0;
	}
}

/*
 * The run's counts (model/stats.h), as instant events "ftrace2trace_stats"
 * on the idle thread at the end of the trace, so what was lost or
 * inconsistent travels with the file (Perfetto shows them as slices with
 * these arguments).  A record holds 15 arguments: one instant per 15 counts.
 */
static int write_stats(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct fxt_priv *p = w->priv;
	struct fxt_args args = { .words = p->argw };
	struct fxt_event_head e = {
		.ts = w->info->stop_ns ? w->info->stop_ns : p->last_ts,
		.thread = fxt_thread_inline(0, 0),
		.args = &args,
	};
	int ret;

	ret = fxt_string_ref(w, "ftrace2trace", strlen("ftrace2trace"), &e.category);
	if (!ret)
		ret = fxt_string_ref(w, "ftrace2trace_stats", strlen("ftrace2trace_stats"), &e.name);
	for (size_t i = 0; !ret && i < f2t_stat_count; i++) {
		const struct f2t_stat_desc *d = &f2t_stat_list[i];
		struct fxt_str name;

		ret = fxt_string_ref(w, d->name, strlen(d->name), &name);
		if (!ret)
			ret = fxt_arg_uint64(p->argw + args.nwords, name, f2t_stat_value(st, d));
		if (ret < 0)
			break;
		args.nwords = (uint16_t)(args.nwords + ret);
		ret = 0;
		if (++args.count == FXT_MAX_ARGS || i == f2t_stat_count - 1) {
			ret = fxt_emit_encoded(w, fxt_instant(p->rec, &e));
			args.nwords = args.count = 0;
		}
	}
	return ret;
}

int fxt_flush_perfetto(struct f2t_writer *w, bool all)
{
	struct fxt_priv *p = w->priv;
	struct fxt_str name;
	size_t done = 0;
	int ret = p->pfbuf.err;

	if (!ret && p->pfbuf.len >= (all ? 1 : PERFETTO_BLOB))
		ret = fxt_string_ref(w, "perfetto", strlen("perfetto"), &name);
	while (!ret && p->pfbuf.len - done >= (all ? 1 : PERFETTO_BLOB)) {
		size_t n = p->pfbuf.len - done < PERFETTO_BLOB ? p->pfbuf.len - done : PERFETTO_BLOB;

		/* Perfetto joins the blobs into one stream: packets may straddle two. */
		ret = fxt_emit_encoded(w, fxt_blob(p->rec, name, BLOB_PERFETTO, p->pfbuf.p + done, n));
		done += n;
	}
	if (done) {	/* an empty buffer has no array yet */
		memmove(p->pfbuf.p, p->pfbuf.p + done, p->pfbuf.len - done);
		p->pfbuf.len -= done;
	}
	return ret;
}

static int fxt_end(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct fxt_priv *p = w->priv;
	int ret = 0;

	/* Losses the kernel counted but no event reported still get a mark. */
	if (!p->lost_written && (st->lost_events || st->kernel_overrun || st->kernel_dropped))
		write_lost(w);
	if (st->samples_lost)
		ret = pf_samples_lost(p->pf, &p->pfbuf, p->last_ts, st->samples_lost);
	if (!ret)
		ret = fxt_flush_perfetto(w, true);
	if (!ret)
		ret = fxt_write_identity(w, w->info->stop_ns ? w->info->stop_ns : p->last_ts);
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
	f2t_stack_text_free(p->stacks);
	pf_samples_free(p->pf);
	pb_buf_free(&p->pfbuf);
	free(p->named);
	f2t_idmap_fini(&p->unknown);
	free(p);
	w->priv = NULL;
}

static const struct f2t_writer_ops fxt_ops = {
	.name = "fxt",
	.begin = fxt_begin,
	.item = fxt_item,
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
	p->stacks = f2t_stack_text_new();
	/* FXT timestamps are MONOTONIC, and Perfetto reads them as its default clock: so are these. */
	p->pf = pf_samples_new(&w->rec->sampling, false);
	if (!p->strs || !p->threads || !p->prof || !p->stacks || !p->pf || f2t_idmap_init(&p->unknown, 1)) {
		w->priv = p;
		fxt_destroy(w);
		return -ENOMEM;
	}
	w->ops = &fxt_ops;
	w->priv = p;
	return 0;
}
