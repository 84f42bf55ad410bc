/* SPDX-License-Identifier: MIT */
/*
 * The off-CPU report: blocked time from F2T_EV_OFFCPU events, summed per
 * thread (S, D and the other states apart) and per stack, with who woke
 * the thread and from where; as a table of the top N, or in the folded
 * form flamegraph.pl, inferno and speedscope read:
 *   THREADNAME;outermost;...;innermost MICROSECONDS
 * (user frames before kernel frames).  Threads are named as the task
 * table names them when the report is printed: the last name each had.
 *
 *   r = f2t_offcpu_report_new();
 *   for each event: f2t_offcpu_report_add(r, ev);
 *   f2t_offcpu_report_print(r, tasks, top, stdout)  or  f2t_offcpu_report_folded(r, tasks, stdout);
 */
#ifndef F2T_REPORT_OFFCPU_H
#define F2T_REPORT_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/event.h"
#include "model/tasks.h"

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
 * Return: 0, or a negative errno (-ENOMEM, or @f's write error).
 */
int f2t_offcpu_report_print(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			    unsigned int top, FILE *f);

/**
 * f2t_offcpu_report_folded() - one line per distinct thread name and stack
 *
 * Return: 0, or a negative errno.
 */
int f2t_offcpu_report_folded(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			     FILE *f);

struct f2t_offcpu_report_opts {
	unsigned int top;	/* stacks listed */
	bool folded;
};

/**
 * f2t_offcpu_report_file() - the report of a recording: what `report
 *			      --off-cpu` runs
 * @path: a capture made with `record --off-cpu`
 * @out: where the report goes
 *
 * Reports its errors (naming the file).  Return: 0, or a negative errno.
 */
int f2t_offcpu_report_file(const char *path, const struct f2t_offcpu_report_opts *o, FILE *out);

#endif
