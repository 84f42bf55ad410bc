// SPDX-License-Identifier: MIT
/*
 * Function calls, interrupt handlers, idle and frequency as FXT records.
 * What is drawn where, and why, is in fxt_kernel.h; which slices open and
 * close is model/fgraph.c's and model/cpu_tracks.c's to say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"
#include "model/cpu_tracks.h"
#include "model/fgraph.h"
#include "model/pseudo.h"
#include "model/stats.h"
#include "fxt/fxt_kernel.h"

#define MAX_FIELD_STRING 256	/* bytes of a text field kept as an argument */

enum { NAMED_IRQ = 1, NAMED_IDLE = 2 };

struct fxt_kernel {
	const struct fxt_kernel_io *io;
	struct f2t_cpu_tracks *cpus;
	struct f2t_fgraph *fg;
	bool process_named;
	uint8_t named[F2T_MAX_CPUS];	/* pseudo threads already named */
	uint64_t argw[FXT_MAX_ARGS * (1 + MAX_FIELD_STRING / 8)];
	uint64_t rec[FXT_MAX_RECORD_WORDS];
};

struct fxt_kernel *fxt_kernel_new(const struct fxt_kernel_io *io)
{
	struct fxt_kernel *k = calloc(1, sizeof(*k));

	if (!k)
		goto nomem;
	k->io = io;
	k->cpus = f2t_cpu_tracks_new();
	k->fg = f2t_fgraph_new();
	if (k->cpus && k->fg)
		return k;
	fxt_kernel_free(k);
nomem:
	errno = ENOMEM;
	return NULL;
}

void fxt_kernel_free(struct fxt_kernel *k)
{
	if (!k)
		return;
	f2t_cpu_tracks_free(k->cpus);
	f2t_fgraph_free(k->fg);
	free(k);
}

static int str(struct fxt_kernel *k, struct f2t_writer *w, const char *s, struct fxt_str *ref)
{
	return k->io->string_ref(w, s, strlen(s), ref);
}

/* Emits the record an encoder just built in k->rec (or passes its error on). */
static int put(struct fxt_kernel *k, struct f2t_writer *w, int words)
{
	if (words < 0)
		return words;
	k->io->emit(w, k->rec, words);
	return 0;
}

/* A kernel object record naming a pseudo process or thread. */
static int name_object(struct fxt_kernel *k, struct f2t_writer *w, uint8_t type,
		       uint64_t koid, const char *name)
{
	uint64_t argw[2];
	struct fxt_args args = { .words = argw };
	struct fxt_str n, key;
	int ret;

	ret = str(k, w, name, &n);
	if (!ret && type == FXT_OBJ_THREAD) {
		ret = str(k, w, "process", &key);
		args.nwords = (uint16_t)fxt_arg_koid(argw, key, F2T_PSEUDO_PID);
		args.count = 1;
	}
	return ret ? ret : put(k, w, fxt_kernel_object(k->rec, type, koid, n, &args));
}

static int pseudo_process(struct fxt_kernel *k, struct f2t_writer *w)
{
	int ret;

	if (k->process_named)
		return 0;
	ret = name_object(k, w, FXT_OBJ_PROCESS, F2T_PSEUDO_PID, F2T_PSEUDO_PROCESS_NAME);
	k->process_named = !ret;
	return ret;
}

/* CPU's "irq cpuN" (or, IDLE, "swapper/N") thread, named the first time. */
static int pseudo_thread(struct fxt_kernel *k, struct f2t_writer *w, uint32_t cpu, bool idle,
			 struct fxt_thread *ref)
{
	uint8_t bit = idle ? NAMED_IDLE : NAMED_IRQ;
	uint64_t tid = (uint64_t)(idle ? F2T_PSEUDO_IDLE_TID(cpu) : F2T_PSEUDO_IRQ_TID(cpu));
	int ret = pseudo_process(k, w);

	if (ret)
		return ret;
	if (!(k->named[cpu] & bit)) {
		char name[32];

		snprintf(name, sizeof(name), idle ? "swapper/%u" : "irq cpu%u", cpu);
		ret = name_object(k, w, FXT_OBJ_THREAD, tid, name);
		if (ret)
			return ret;
		k->named[cpu] |= bit;
	}
	return k->io->thread_ref(w, F2T_PSEUDO_PID, tid, ref);
}

/* The thread that made a function call: its own, or its CPU's idle thread. */
static int caller_thread(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev,
			 struct fxt_thread *ref)
{
	struct f2t_task *t;
	int ret;

	if (ev->pid <= 0)
		return pseudo_thread(k, w, ev->cpu, true, ref);
	ret = k->io->ensure_named(w, ev->pid, &t);
	if (ret)
		return ret;
	return k->io->thread_ref(w, (uint64_t)(t->tgid > 0 ? t->tgid : t->tid), (uint64_t)t->tid,
				 ref);
}

static int write_function(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_args args = { .words = k->argw };
	struct fxt_event_head e = { .ts = ev->ts, .args = &args };
	struct fxt_str key, caller;
	int ret;

	ret = caller_thread(k, w, ev, &e.thread);
	if (!ret)
		ret = str(k, w, "function", &e.category);
	if (!ret)
		ret = str(k, w, ev->func.name, &e.name);
	/* No caller when the kernel recorded none (it prints none either). */
	if (!ret && ev->func.parent_ip) {
		ret = str(k, w, "caller", &key);
		if (!ret)
			ret = str(k, w, ev->func.parent, &caller);
		if (!ret) {
			args.nwords = (uint16_t)fxt_arg_string(k->argw, key, caller);
			args.count = 1;
		}
	}
	return ret ? ret : put(k, w, fxt_instant(k->rec, &e));
}

/* N duration end records on THREAD; the last one named NAME (NULL: none). */
static int end_slices(struct fxt_kernel *k, struct f2t_writer *w, uint64_t ts,
		      struct fxt_thread thread, struct fxt_str cat, unsigned int n,
		      const char *last_name, const struct fxt_args *last_args)
{
	struct fxt_event_head e = { .ts = ts, .thread = thread, .category = cat };
	int ret = 0;

	for (unsigned int i = 0; !ret && i < n; i++) {
		e.name = fxt_str_index(0);
		e.args = NULL;
		if (i == n - 1) {
			if (last_name)
				ret = str(k, w, last_name, &e.name);
			e.args = last_args;
		}
		if (!ret)
			ret = put(k, w, fxt_duration_end(k->rec, &e));
	}
	return ret;
}

static int write_graph(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fxt_event_head e = { .ts = ev->ts };
	struct f2t_fg_step step;
	bool matched;
	int ret;

	ret = f2t_fgraph_event(k->fg, ev, &step);
	if (ret || !(step.close || step.begin || step.complete))
		return ret;
	ret = caller_thread(k, w, ev, &e.thread);
	if (!ret)
		ret = str(k, w, "function_graph", &e.category);
	if (ret)
		return ret;
	/* Only an exit that found its entry names the slice it ends. */
	matched = ev->kind == F2T_EV_FUNCGRAPH_EXIT && !step.complete;
	ret = end_slices(k, w, ev->ts, e.thread, e.category, step.close,
			 matched ? ev->graph.name : NULL, NULL);
	if (!ret && (step.begin || step.complete))
		ret = str(k, w, ev->graph.name, &e.name);
	if (ret)
		return ret;
	if (step.begin)
		return put(k, w, fxt_duration_begin(k->rec, &e));
	if (step.complete) {
		e.ts = step.start;
		return put(k, w, fxt_duration_complete(k->rec, &e, ev->ts));
	}
	return 0;
}

static int write_irq(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	bool soft = ev->kind == F2T_EV_SOFTIRQ_ENTRY || ev->kind == F2T_EV_SOFTIRQ_EXIT;
	struct fxt_args args = { .words = k->argw, .count = 1 };
	struct fxt_event_head e = { .ts = ev->ts, .args = &args };
	struct f2t_irq_step step;
	struct fxt_str key, val;
	char name[160];
	int ret;

	f2t_cpu_irq(k->cpus, ev, &step);
	if (!step.close && !step.begin)
		return 0;
	ret = pseudo_thread(k, w, ev->cpu, false, &e.thread);
	if (!ret)
		ret = str(k, w, "irq", &e.category);
	if (ret)
		return ret;
	if (ev->kind == F2T_EV_IRQ_EXIT) {
		/* As the kernel prints it, so the slice says whether it was handled. */
		ret = str(k, w, "ret", &key);
		if (!ret)
			ret = str(k, w, ev->irq.ret ? "handled" : "unhandled", &val);
		if (ret)
			return ret;
		args.nwords = (uint16_t)fxt_arg_string(k->argw, key, val);
	}
	ret = end_slices(k, w, ev->ts, e.thread, e.category, step.close, NULL,
			 ev->kind == F2T_EV_IRQ_EXIT ? &args : NULL);
	if (ret || !step.begin)
		return ret;
	/* Perfetto's own names for the kernel's irq tracks: "IRQ (name)". */
	if (soft)
		snprintf(name, sizeof(name), "SOFTIRQ (%s)", ev->softirq.name);
	else
		snprintf(name, sizeof(name), "IRQ (%s)", ev->irq.name);
	ret = str(k, w, name, &e.name);
	if (!ret)
		ret = str(k, w, soft ? "vec" : "irq", &key);
	if (ret)
		return ret;
	args.nwords = (uint16_t)(soft ? fxt_arg_uint32(k->argw, key, ev->softirq.vec) :
					fxt_arg_int32(k->argw, key, ev->irq.irq));
	return put(k, w, fxt_duration_begin(k->rec, &e));
}

static int write_power(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	bool idle = ev->kind == F2T_EV_CPU_IDLE;
	uint32_t cpu = f2t_cpu_of(ev);
	struct fxt_args args = { .words = k->argw, .count = 1 };
	struct fxt_event_head e = { .ts = ev->ts, .args = &args };
	struct fxt_str key;
	char series[24];
	int ret;

	/* Counters belong to a process in Perfetto; the thread is only a carrier. */
	ret = pseudo_process(k, w);
	if (!ret)
		ret = k->io->thread_ref(w, F2T_PSEUDO_PID, F2T_PSEUDO_PID, &e.thread);
	if (!ret)
		ret = str(k, w, "power", &e.category);
	if (!ret)
		ret = str(k, w, idle ? "cpu_idle" : "cpu_frequency", &e.name);
	snprintf(series, sizeof(series), "cpu%u", cpu);
	if (!ret)
		ret = str(k, w, series, &key);
	if (ret)
		return ret;
	args.nwords = (uint16_t)(idle ? fxt_arg_int64(k->argw, key, f2t_cpu_idle_value(ev->power.state)) :
					fxt_arg_uint64(k->argw, key, ev->power.state));
	return put(k, w, fxt_counter(k->rec, &e, cpu));
}

/* The irq slices open on a CPU whose ring lost events end there. */
static int write_lost(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	unsigned int n = f2t_cpu_lost(k->cpus, ev->cpu);
	struct fxt_thread thread;
	struct fxt_str cat;
	int ret;

	if (!n)
		return 0;
	ret = pseudo_thread(k, w, ev->cpu, false, &thread);
	if (!ret)
		ret = str(k, w, "irq", &cat);
	return ret ? ret : end_slices(k, w, ev->ts, thread, cat, n, NULL, NULL);
}

int fxt_kernel_event(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	switch (ev->kind) {
	case F2T_EV_FUNCTION:
		return write_function(k, w, ev);
	case F2T_EV_FUNCGRAPH_ENTRY:
	case F2T_EV_FUNCGRAPH_EXIT:
		return write_graph(k, w, ev);
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		return write_irq(k, w, ev);
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		return write_power(k, w, ev);
	case F2T_EV_LOST:
		return write_lost(k, w, ev);
	default:
		return 0;
	}
}

struct fields_ctx {
	struct fxt_kernel *k;
	struct f2t_writer *w;
	struct fxt_args *args;
};

static int add_field(void *ctx, const char *name, int is_str, long long num, const char *s)
{
	struct fields_ctx *c = ctx;
	uint64_t *dst = c->k->argw + c->args->nwords;
	struct fxt_str key;
	int ret;

	if (c->args->count == FXT_MAX_ARGS)
		return 0;
	ret = str(c->k, c->w, name, &key);
	if (ret)
		return ret;
	if (is_str) {
		size_t len = strnlen(s, MAX_FIELD_STRING);

		ret = fxt_arg_string(dst, key, fxt_str_inline(s, len));
	} else {
		ret = fxt_arg_int64(dst, key, num);
	}
	if (ret < 0)
		return ret;
	c->args->nwords = (uint16_t)(c->args->nwords + ret);
	c->args->count++;
	return 0;
}

int fxt_kernel_fields(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev,
		      struct fxt_args *args)
{
	struct fields_ctx c = { .k = k, .w = w, .args = args };
	int ret;

	*args = (struct fxt_args){ .words = k->argw };
	ret = f2t_event_fields(ev, add_field, &c);
	/* A source that keeps no fields (a test's hand-made event) has none to add. */
	return ret == -ENOENT ? 0 : ret;
}
