// SPDX-License-Identifier: MIT
/*
 * The kernel's own events as items:
 *  - function tracer calls: an instant on the calling thread, named for
 *    the function, with the caller as argument "caller";
 *  - function_graph calls: slices on the calling thread, nested as the
 *    calls were (fgraph.h decides; a call whose entry came before the
 *    trace is one complete slice);
 *  - irq and softirq handlers: slices on the CPU's "irq cpuN" pseudo
 *    thread, nested as they interrupted each other (cpu_tracks.h), named
 *    as Perfetto names its own irq slices: "IRQ (name)", "SOFTIRQ (name)";
 *  - power:cpu_idle and cpu_frequency: counters "cpu_idle" /
 *    "cpu_frequency" of the pseudo process "CPUs", one series "cpuN" each,
 *    counter id N;
 *  - any other tracepoint: an instant "SYSTEM:EVENT" with its fields.
 * An idle task's function calls go to its CPU's "swapper/N" pseudo thread:
 * all idle tasks share pid 0, and one track would interleave every CPU's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/model-local.h"
#include "model/pseudo.h"
#include "model/event.h"

static int function(struct f2t_model *m, const struct f2t_event *ev)
{
	struct f2t_item it = {
		.kind = F2T_ITEM_INSTANT, .ts = ev->ts, .ev = ev,
		.category = f2t_s("function"), .name = f2t_s(ev->func.name), .args = m->args,
	};
	int ret = f2t_model_task_track(m, ev->pid, ev->cpu, ev->ts, &it.track);

	if (ret)
		return ret;
	/* No caller when the kernel recorded none (it prints none either). */
	if (ev->func.parent_ip) {
		m->args[0] = (struct f2t_arg){ .name = "caller", .type = F2T_ARG_STR,
					       .str = f2t_s(ev->func.parent) };
		it.nargs = 1;
	}
	return f2t_model_put(m, &it);
}

/* N ends on @track; the last one named @name (s NULL: none) with @args. */
static int end_slices(struct f2t_model *m, const struct f2t_event *ev,
		      const struct f2t_track *track, const char *category, unsigned int n,
		      struct f2t_str name, unsigned int nargs)
{
	struct f2t_item it = {
		.kind = F2T_ITEM_END, .ts = ev->ts, .ev = ev, .track = *track,
		.category = f2t_s(category), .args = m->args,
	};
	int ret = 0;

	for (unsigned int i = 0; !ret && i < n; i++) {
		bool last = i == n - 1;

		it.name = last ? name : (struct f2t_str){ 0 };
		it.nargs = last ? nargs : 0;
		ret = f2t_model_put(m, &it);
	}
	return ret;
}

static int graph(struct f2t_model *m, const struct f2t_event *ev)
{
	struct f2t_item it = {
		.ts = ev->ts, .ev = ev, .category = f2t_s("function_graph"),
		.name = f2t_s(ev->graph.name),
	};
	struct f2t_fg_step step;
	bool matched;
	int ret;

	ret = f2t_fgraph_event(m->fg, ev, &step);
	if (ret || !(step.close || step.begin || step.complete))
		return ret;
	ret = f2t_model_task_track(m, ev->pid, ev->cpu, ev->ts, &it.track);
	if (ret)
		return ret;
	/* Only an exit that found its entry names the slice it ends. */
	matched = ev->kind == F2T_EV_FUNCGRAPH_EXIT && !step.complete;
	ret = end_slices(m, ev, &it.track, "function_graph", step.close,
			 matched ? it.name : (struct f2t_str){ 0 }, 0);
	if (ret)
		return ret;
	if (step.begin) {
		it.kind = F2T_ITEM_BEGIN;
		return f2t_model_put(m, &it);
	}
	if (step.complete) {
		it.kind = F2T_ITEM_COMPLETE;
		it.ts = step.start;
		it.end_ts = ev->ts;
		return f2t_model_put(m, &it);
	}
	return 0;
}

static int irq(struct f2t_model *m, const struct f2t_event *ev)
{
	bool soft = ev->kind == F2T_EV_SOFTIRQ_ENTRY || ev->kind == F2T_EV_SOFTIRQ_EXIT;
	struct f2t_item it = {
		.kind = F2T_ITEM_BEGIN, .ts = ev->ts, .ev = ev, .category = f2t_s("irq"),
		.args = m->args, .nargs = 1,
	};
	struct f2t_irq_step step;
	unsigned int nargs = 0;
	int ret;

	f2t_cpu_irq(m->cpus, ev, &step);
	if (!step.close && !step.begin)
		return 0;
	ret = f2t_model_irq_track(m, ev->cpu, ev->ts, &it.track);
	if (ret)
		return ret;
	if (ev->kind == F2T_EV_IRQ_EXIT) {
		/* As the kernel prints it, so the slice says whether it was handled. */
		m->args[0] = (struct f2t_arg){
			.name = "ret", .type = F2T_ARG_STR,
			.str = f2t_s(ev->irq.ret ? "handled" : "unhandled"),
		};
		nargs = 1;
	}
	ret = end_slices(m, ev, &it.track, "irq", step.close, (struct f2t_str){ 0 }, nargs);
	if (ret || !step.begin)
		return ret;
	snprintf(m->text, sizeof(m->text), soft ? "SOFTIRQ (%s)" : "IRQ (%s)",
		 soft ? ev->softirq.name : ev->irq.name);
	it.name = f2t_s(m->text);
	m->args[0] = soft ? (struct f2t_arg){ .name = "vec", .type = F2T_ARG_U32,
					      .u = ev->softirq.vec } :
			    (struct f2t_arg){ .name = "irq", .type = F2T_ARG_I32, .i = ev->irq.irq };
	return f2t_model_put(m, &it);
}

static int power(struct f2t_model *m, const struct f2t_event *ev)
{
	bool idle = ev->kind == F2T_EV_CPU_IDLE;
	uint32_t cpu = f2t_cpu_of(ev);
	struct f2t_item it = {
		.kind = F2T_ITEM_COUNTER, .ts = ev->ts, .ev = ev, .category = f2t_s("power"),
		.name = f2t_s(idle ? "cpu_idle" : "cpu_frequency"), .id = cpu,
		.args = m->args, .nargs = 1,
	};
	int ret = f2t_model_cpus_track(m, ev->ts, &it.track);

	if (ret)
		return ret;
	snprintf(m->series, sizeof(m->series), "cpu%u", cpu);
	m->args[0] = idle ? (struct f2t_arg){ .name = m->series, .type = F2T_ARG_I64,
					      .i = f2t_cpu_idle_value(ev->power.state) } :
			    (struct f2t_arg){ .name = m->series, .type = F2T_ARG_U64,
					      .u = ev->power.state };
	return f2t_model_put(m, &it);
}

struct fields {
	struct f2t_model *m;
	struct f2t_item *it;
};

static int add_field(void *ctx, const char *name, int is_str, long long num, const char *s)
{
	struct fields *f = ctx;

	if (f->it->nargs == F2T_ITEM_MAX_ARGS)
		return 0;
	f->m->args[f->it->nargs++] = is_str ?
		(struct f2t_arg){ .name = name, .type = F2T_ARG_STR, .unique = true, .str = f2t_s(s) } :
		(struct f2t_arg){ .name = name, .type = F2T_ARG_I64, .i = num };
	return 0;
}

/* Any other tracepoint: an instant on the thread that hit it, fields as arguments. */
static int tracepoint(struct f2t_model *m, const struct f2t_event *ev)
{
	struct f2t_item it = {
		.kind = F2T_ITEM_INSTANT, .ts = ev->ts, .ev = ev, .category = f2t_s("ftrace"),
		.args = m->args,
	};
	int ret;

	snprintf(m->text, sizeof(m->text), "%s:%s", ev->other.system ? ev->other.system : "?",
		 ev->other.name ? ev->other.name : "?");
	it.name = f2t_s(m->text);
	/* Even the idle task's: pid 0, as the kernel's own text has it. */
	it.track = (struct f2t_track){ F2T_TRACK_THREAD, f2t_model_process_of(m, ev->pid), ev->pid, 0 };
	ret = f2t_event_fields(ev, add_field, &(struct fields){ m, &it });
	/* A source that keeps no fields (a test's hand-made event) has none to give. */
	if (ret && ret != -ENOENT)
		return ret;
	return f2t_model_put(m, &it);
}

/* The irq slices open on a CPU whose ring lost events end there. */
static int lost(struct f2t_model *m, const struct f2t_event *ev)
{
	unsigned int n = f2t_cpu_lost(m->cpus, ev->cpu);
	struct f2t_track track;
	int ret;

	if (!n)
		return 0;
	ret = f2t_model_irq_track(m, ev->cpu, ev->ts, &track);
	return ret ? ret : end_slices(m, ev, &track, "irq", n, (struct f2t_str){ 0 }, 0);
}

int f2t_model_kernel_event(struct f2t_model *m, const struct f2t_event *ev)
{
	switch (ev->kind) {
	case F2T_EV_FUNCTION:
		return function(m, ev);
	case F2T_EV_FUNCGRAPH_ENTRY:
	case F2T_EV_FUNCGRAPH_EXIT:
		return graph(m, ev);
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		return irq(m, ev);
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		return power(m, ev);
	case F2T_EV_OTHER:
		return tracepoint(m, ev);
	case F2T_EV_LOST:
		return lost(m, ev);
	default:
		return 0;
	}
}
