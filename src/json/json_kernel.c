// SPDX-License-Identifier: MIT
/*
 * Function calls, interrupt handlers, idle and frequency, and other
 * tracepoints as traceEvents entries.  What goes where, and why, is in
 * json_kernel.h; which slices open and close is model/fgraph.c's and
 * model/cpu_tracks.c's to say, as for the FXT writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"
#include "model/cpu_tracks.h"
#include "model/fgraph.h"
#include "model/pseudo.h"
#include "json/json_fmt.h"
#include "json/json_kernel.h"

enum { NAMED_IRQ = 1, NAMED_IDLE = 2 };

struct json_kernel {
	struct f2t_cpu_tracks *cpus;
	struct f2t_fgraph *fg;
	bool process_named;
	uint8_t named[F2T_MAX_CPUS];	/* pseudo threads already named */
	uint64_t not_in_text;
};

struct json_kernel *json_kernel_new(void)
{
	struct json_kernel *k = calloc(1, sizeof(*k));

	if (!k)
		goto nomem;
	k->cpus = f2t_cpu_tracks_new();
	k->fg = f2t_fgraph_new();
	if (k->cpus && k->fg)
		return k;
	json_kernel_free(k);
nomem:
	errno = ENOMEM;
	return NULL;
}

void json_kernel_free(struct json_kernel *k)
{
	if (!k)
		return;
	f2t_cpu_tracks_free(k->cpus);
	f2t_fgraph_free(k->fg);
	free(k);
}

static void put_i64(struct f2t_out *o, int64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_i64(buf, v));
}

static void put_ts(struct f2t_out *o, uint64_t ns)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_ts(buf, ns));
}

static void put_str(struct f2t_out *o, const char *s)
{
	f2t_json_put_string(o, s, strlen(s));
}

/* ,\n{"name":NAME,"cat":CAT,"ph":PH, -- NAME NULL: none (an "E") */
static void head(struct f2t_out *o, const char *name, const char *cat, const char *ph)
{
	f2t_out_puts(o, ",\n{");
	if (name) {
		f2t_out_puts(o, "\"name\":");
		put_str(o, name);
		f2t_out_putc(o, ',');
	}
	f2t_out_puts(o, "\"cat\":\"");
	f2t_out_puts(o, cat);
	f2t_out_puts(o, "\",\"ph\":\"");
	f2t_out_puts(o, ph);
	f2t_out_puts(o, "\"");
}

/* ,"ts":..,"pid":..,"tid":.. -- the entry stays open for args */
static void where(struct f2t_out *o, uint64_t ts, int32_t pid, int32_t tid)
{
	f2t_out_puts(o, ",\"ts\":");
	put_ts(o, ts);
	f2t_out_puts(o, ",\"pid\":");
	put_i64(o, pid);
	f2t_out_puts(o, ",\"tid\":");
	put_i64(o, tid);
}

static void name_meta(struct f2t_out *o, const char *kind, int32_t tid, const char *name)
{
	f2t_out_puts(o, ",\n{\"name\":\"");
	f2t_out_puts(o, kind);
	f2t_out_puts(o, "\",\"ph\":\"M\",\"pid\":");
	put_i64(o, F2T_PSEUDO_PID);
	f2t_out_puts(o, ",\"tid\":");
	put_i64(o, tid);
	f2t_out_puts(o, ",\"args\":{\"name\":");
	put_str(o, name);
	f2t_out_puts(o, "}}");
}

static void pseudo_process(struct json_kernel *k, struct f2t_out *o)
{
	if (k->process_named)
		return;
	name_meta(o, "process_name", F2T_PSEUDO_PID, F2T_PSEUDO_PROCESS_NAME);
	k->process_named = true;
}

/* CPU's "irq cpuN" (or, IDLE, "swapper/N") pseudo thread id, named the first time. */
static int32_t pseudo_thread(struct json_kernel *k, struct f2t_out *o, uint32_t cpu, bool idle)
{
	uint8_t bit = idle ? NAMED_IDLE : NAMED_IRQ;
	int32_t tid = idle ? F2T_PSEUDO_IDLE_TID(cpu) : F2T_PSEUDO_IRQ_TID(cpu);

	pseudo_process(k, o);
	if (!(k->named[cpu] & bit)) {
		char name[32];

		snprintf(name, sizeof(name), idle ? "swapper/%u" : "irq cpu%u", cpu);
		name_meta(o, "thread_name", tid, name);
		k->named[cpu] |= bit;
	}
	return tid;
}

/* The pid and tid of the thread that hit EV: its own, or its CPU's idle thread. */
static void caller(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev,
		   int32_t *pid, int32_t *tid)
{
	const struct f2t_task *t;

	if (ev->pid <= 0) {
		*tid = pseudo_thread(k, w->out, ev->cpu, true);
		*pid = F2T_PSEUDO_PID;
		return;
	}
	t = f2t_tasks_find(w->tasks, ev->pid);
	*tid = ev->pid;
	*pid = t && t->tgid > 0 ? t->tgid : ev->pid;
}

static void write_function(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	struct f2t_out *o = w->out;
	int32_t pid, tid;

	caller(k, w, ev, &pid, &tid);
	head(o, ev->func.name, "function", "i");
	f2t_out_puts(o, ",\"s\":\"t\"");
	where(o, ev->ts, pid, tid);
	/* No caller when the kernel recorded none (it prints none either). */
	if (ev->func.parent_ip) {
		f2t_out_puts(o, ",\"args\":{\"caller\":");
		put_str(o, ev->func.parent);
		f2t_out_putc(o, '}');
	}
	f2t_out_putc(o, '}');
}

/* N "E" entries; the last named NAME (NULL: none) with ARGS (a JSON object, or NULL). */
static void end_slices(struct f2t_out *o, uint64_t ts, int32_t pid, int32_t tid,
		       const char *cat, unsigned int n, const char *name, const char *args)
{
	for (unsigned int i = 0; i < n; i++) {
		bool last = i == n - 1;

		head(o, last ? name : NULL, cat, "E");
		where(o, ts, pid, tid);
		if (last && args) {
			f2t_out_puts(o, ",\"args\":");
			f2t_out_puts(o, args);
		}
		f2t_out_putc(o, '}');
	}
}

static int write_graph(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	struct f2t_out *o = w->out;
	struct f2t_fg_step step;
	int32_t pid, tid;
	bool matched;
	int ret;

	ret = f2t_fgraph_event(k->fg, ev, &step);
	if (ret || !(step.close || step.begin || step.complete))
		return ret;
	caller(k, w, ev, &pid, &tid);
	/* Only an exit that found its entry names the slice it ends. */
	matched = ev->kind == F2T_EV_FUNCGRAPH_EXIT && !step.complete;
	end_slices(o, ev->ts, pid, tid, "function_graph", step.close,
		   matched ? ev->graph.name : NULL, NULL);
	if (step.begin) {
		head(o, ev->graph.name, "function_graph", "B");
		where(o, ev->ts, pid, tid);
		f2t_out_putc(o, '}');
	} else if (step.complete) {
		head(o, ev->graph.name, "function_graph", "X");
		where(o, step.start, pid, tid);
		f2t_out_puts(o, ",\"dur\":");
		put_ts(o, ev->ts - step.start);
		f2t_out_putc(o, '}');
	}
	return 0;
}

static void write_irq(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	bool soft = ev->kind == F2T_EV_SOFTIRQ_ENTRY || ev->kind == F2T_EV_SOFTIRQ_EXIT;
	struct f2t_out *o = w->out;
	struct f2t_irq_step step;
	char name[160];
	int32_t tid;

	f2t_cpu_irq(k->cpus, ev, &step);
	if (!step.close && !step.begin)
		return;
	tid = pseudo_thread(k, o, ev->cpu, false);
	end_slices(o, ev->ts, F2T_PSEUDO_PID, tid, "irq", step.close, NULL,
		   ev->kind != F2T_EV_IRQ_EXIT ? NULL :
		   ev->irq.ret ? "{\"ret\":\"handled\"}" : "{\"ret\":\"unhandled\"}");
	if (!step.begin)
		return;
	/* Perfetto's own names for the kernel's irq tracks: "IRQ (name)". */
	if (soft)
		snprintf(name, sizeof(name), "SOFTIRQ (%s)", ev->softirq.name);
	else
		snprintf(name, sizeof(name), "IRQ (%s)", ev->irq.name);
	head(o, name, "irq", "B");
	where(o, ev->ts, F2T_PSEUDO_PID, tid);
	f2t_out_puts(o, soft ? ",\"args\":{\"vec\":" : ",\"args\":{\"irq\":");
	put_i64(o, soft ? (int64_t)ev->softirq.vec : ev->irq.irq);
	f2t_out_puts(o, "}}");
}

static void write_power(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	bool idle = ev->kind == F2T_EV_CPU_IDLE;
	uint32_t cpu = f2t_cpu_of(ev);
	struct f2t_out *o = w->out;
	char series[24];

	pseudo_process(k, o);
	head(o, idle ? "cpu_idle" : "cpu_frequency", "power", "C");
	where(o, ev->ts, F2T_PSEUDO_PID, F2T_PSEUDO_PID);
	snprintf(series, sizeof(series), ",\"args\":{\"cpu%u\":", cpu);
	f2t_out_puts(o, series);
	put_i64(o, idle ? f2t_cpu_idle_value(ev->power.state) : (int64_t)ev->power.state);
	f2t_out_puts(o, "}}");
}

struct fields_ctx {
	struct f2t_out *o;
	bool first;
};

static int put_field(void *ctx, const char *name, int is_str, long long num, const char *s)
{
	struct fields_ctx *c = ctx;

	f2t_out_puts(c->o, c->first ? "{" : ",");
	c->first = false;
	put_str(c->o, name);
	f2t_out_putc(c->o, ':');
	if (is_str)
		put_str(c->o, s);
	else
		put_i64(c->o, num);
	return 0;
}

/* Any other tracepoint: an instant "SYSTEM:EVENT" on its thread, fields as args. */
static int write_other(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	struct fields_ctx c = { .o = w->out, .first = true };
	const struct f2t_task *t = ev->pid > 0 ? f2t_tasks_find(w->tasks, ev->pid) : NULL;
	char name[256];
	int ret;

	snprintf(name, sizeof(name), "%s:%s", ev->other.system ? ev->other.system : "?",
		 ev->other.name ? ev->other.name : "?");
	head(w->out, name, "ftrace", "i");
	f2t_out_puts(w->out, ",\"s\":\"t\"");
	where(w->out, ev->ts, t && t->tgid > 0 ? t->tgid : ev->pid, ev->pid);
	f2t_out_puts(w->out, ",\"args\":");
	ret = f2t_event_fields(ev, put_field, &c);
	/* A source that keeps no fields (a test's hand-made event) has none to give. */
	if (ret && ret != -ENOENT)
		return ret;
	f2t_out_puts(w->out, c.first ? "{}}" : "}}");
	return 0;
}

/* The irq slices open on a CPU whose ring lost events end there. */
static void write_lost(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	unsigned int n = f2t_cpu_lost(k->cpus, ev->cpu);

	if (n)
		end_slices(w->out, ev->ts, F2T_PSEUDO_PID, pseudo_thread(k, w->out, ev->cpu, false),
			   "irq", n, NULL, NULL);
}

int json_kernel_event(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev)
{
	switch (ev->kind) {
	case F2T_EV_FUNCTION:
		write_function(k, w, ev);
		return 0;
	case F2T_EV_FUNCGRAPH_ENTRY:
	case F2T_EV_FUNCGRAPH_EXIT:
		return write_graph(k, w, ev);
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		write_irq(k, w, ev);
		k->not_in_text++;
		return 1;
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		write_power(k, w, ev);
		k->not_in_text++;
		return 1;
	case F2T_EV_OTHER:
		return write_other(k, w, ev);
	case F2T_EV_LOST:
		write_lost(k, w, ev);
		return 0;
	default:
		return 0;
	}
}

void json_kernel_other_data(const struct json_kernel *k, struct f2t_writer *w)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_puts(w->out, ",\"kernel_lines_not_in_text\":");
	f2t_out_write(w->out, buf, f2t_json_u64(buf, k->not_in_text));
	f2t_out_puts(w->out, ",\"funcgraph_exits_without_entry\":");
	f2t_out_write(w->out, buf, f2t_json_u64(buf, f2t_fgraph_unmatched(k->fg)));
}
