/* SPDX-License-Identifier: MIT */
/*
 * The off-CPU report: blocked time from F2T_EV_OFFCPU events, summed per
 * thread (S, D and the other states apart) and per stack, with who woke
 * the thread and from where; as a table of the top N, or in the folded
 * form flamegraph.pl, inferno and speedscope read:
 *   THREADNAME;outermost;...;innermost MICROSECONDS
 * (user frames before kernel frames).  Threads are named as the task
 * table names them when the report is printed: the last name each had.
 * Like the scheduling report (report.h), it is a tap on the pipeline, and
 * writes through the output layer (util/out.h).
 *
 *   r = f2t_offcpu_report_new();
 *   tap = f2t_offcpu_report_tap(r, path);  f2t_pipeline_add_tap(p, &tap);
 *	(or f2t_offcpu_report_add() per event)
 *   after the run: f2t_offcpu_report_write(r, tasks, opts, out);
 * f2t_offcpu_report_run() (report_run.c) does all of it for `report --off-cpu`.
 */
#ifndef F2T_REPORT_OFFCPU_H
#define F2T_REPORT_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/tasks.h"
#include "pipeline/convert.h"
#include "pipeline/pipeline.h"

struct f2t_out;

struct f2t_offcpu_report;

/* Return: an empty report, or NULL with errno set. */
struct f2t_offcpu_report *f2t_offcpu_report_new(void);
void f2t_offcpu_report_free(struct f2t_offcpu_report *r);

/**
 * f2t_offcpu_report_add() - count one event (other kinds are ignored)
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_offcpu_report_add(struct f2t_offcpu_report *r, const struct f2t_event *ev);

/** f2t_offcpu_report_thread_ns() - blocked ns of thread @tid in @state ('S', 'D'; 0: all) */
uint64_t f2t_offcpu_report_thread_ns(const struct f2t_offcpu_report *r, int32_t tid, char state);

/**
 * f2t_offcpu_report_print() - the tables: threads by blocked time, then the
 *			       @top stacks with their wakers
 * @tasks: names the threads
 *
 * Return: 0, or -ENOMEM (@f's errors are its own: f2t_out_close()).
 */
int f2t_offcpu_report_print(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			    unsigned int top, struct f2t_out *f);

/**
 * f2t_offcpu_report_folded() - one line per distinct thread name and stack
 *
 * Return: 0, or -ENOMEM.
 */
int f2t_offcpu_report_folded(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			     struct f2t_out *f);

/**
 * f2t_offcpu_report_folded_each() - the folded lines, in the order of
 *				     their stacks: @line(@ctx, stack, ns)
 *				     for each, until it returns non-zero
 *
 * Return: 0, -ENOMEM, or what @line returned.
 */
int f2t_offcpu_report_folded_each(const struct f2t_offcpu_report *r,
				  const struct f2t_tasks *tasks,
				  int (*line)(void *ctx, const char *stack, uint64_t ns), void *ctx);

struct f2t_offcpu_report_opts {
	unsigned int top;	/* stacks listed */
	bool folded;
};

/**
 * f2t_offcpu_report_tap() - the tap that feeds @r, for f2t_pipeline_add_tap()
 * @path: the input, for messages
 *
 * Its end fails the run, saying so, when no off-CPU episode came.
 */
struct f2t_tap f2t_offcpu_report_tap(struct f2t_offcpu_report *r, const char *path);

/**
 * f2t_offcpu_report_write() - the report, after the run: the counts and the
 *			       tables, or the folded lines
 *
 * Return: 0, or -ENOMEM (@out's errors are its own: f2t_out_close()).
 */
int f2t_offcpu_report_write(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			    const struct f2t_offcpu_report_opts *o, struct f2t_out *out);

/**
 * f2t_offcpu_report_run() - the report of a recording: what `report
 *			     --off-cpu` runs
 * @path: a capture made with `record --off-cpu`
 * @conv: the pass's options (progress, summary; no outputs)
 *
 * One pass with the report as its tap; written on standard output.
 * Reports its errors.  Return: 0, or a negative errno.
 */
int f2t_offcpu_report_run(const char *path, const struct f2t_offcpu_report_opts *o,
			  const struct f2t_convert_opts *conv);

#endif
