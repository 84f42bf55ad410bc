/* SPDX-License-Identifier: MIT */
/*
 * Kernel activity as Chrome Trace Event Format events, for the JSON
 * writer.  The same representation as the FXT writer's (fxt_kernel.h):
 *  - function tracer calls: "i" events on the calling thread, named for
 *    the function, args {"caller": PARENT};
 *  - function_graph calls: "B"/"E" on the calling thread, nested as the
 *    calls were; a call whose entry came before the trace is one "X";
 *  - irq and softirq handlers: "B"/"E" on the pseudo thread "irq cpuN" of
 *    the pseudo process "CPUs" (model/pseudo.h, named with "M" events);
 *  - power:cpu_idle and cpu_frequency: "C" events of that process, named
 *    "cpu_idle" / "cpu_frequency" with one series "cpuN" (Perfetto: tracks
 *    "cpu_idle cpuN"; Trace Viewer: counter "cpu_idle", series cpuN);
 *  - any other tracepoint: an "i" event "SYSTEM:EVENT" with its fields as
 *    args.
 *
 * The text: function-tracer lines stay in systemTraceEvents (neither
 * viewer draws them from there).  The irq and power lines are left out,
 * counted in otherData: Trace Viewer would draw each of them a second time
 * (its own CPU irq slices and C-State / Clock Frequency counters), and
 * Perfetto draws cpu_idle from the text only next to a cpu_frequency
 * track, so on a machine without cpufreq the text alone shows no idle.
 */
#ifndef F2T_JSON_KERNEL_H
#define F2T_JSON_KERNEL_H

#include "output/writer.h"

struct json_kernel;

/** json_kernel_new() - state for one JSON writer; NULL with errno ENOMEM */
struct json_kernel *json_kernel_new(void);

/** json_kernel_free() - free @k; NULL is fine */
void json_kernel_free(struct json_kernel *k);

/**
 * json_kernel_event() - the traceEvents entries for one event
 * @k: the state
 * @w: the JSON writer, inside its traceEvents array (each entry is written
 *	as ",\n{...}")
 * @ev: any event; F2T_EV_FUNCTION .. F2T_EV_CPU_FREQ, F2T_EV_OTHER and
 *	F2T_EV_LOST (which ends the irq slices open on its CPU) write
 *	entries, the rest nothing
 *
 * Return: 1 when the event's line must stay out of systemTraceEvents, 0
 * when it goes there as usual, or a negative errno.
 */
int json_kernel_event(struct json_kernel *k, struct f2t_writer *w, const struct f2t_event *ev);

/**
 * json_kernel_other_data() - what this module counted, as otherData members
 * @k: the state
 * @w: the JSON writer, inside otherData (each member written as ,"key":value)
 *
 * "kernel_lines_not_in_text" (irq and power events drawn from traceEvents
 * instead) and "funcgraph_exits_without_entry".
 */
void json_kernel_other_data(const struct json_kernel *k, struct f2t_writer *w);

#endif
