/* SPDX-License-Identifier: MIT */
/*
 * CPU time per thread, summed from sched_switch events as they stream past,
 * so a writer can put the busiest processes first.  The sums live in the
 * tasks themselves (struct f2t_task's cpu_ns): no lookup of its own per
 * switch, and no memory beyond the tasks'.
 */
#ifndef F2T_CPUTIME_H
#define F2T_CPUTIME_H

#include <stdint.h>

#include "model/event.h"
#include "model/tasks.h"

struct f2t_cputime;

/**
 * f2t_cputime_new() - an empty tally over the threads of @tasks
 *
 * Return: the tally, or NULL with errno set.
 */
struct f2t_cputime *f2t_cputime_new(struct f2t_tasks *tasks);

/** f2t_cputime_free() - free C (NULL is fine) */
void f2t_cputime_free(struct f2t_cputime *c);

/**
 * f2t_cputime_event() - account for EV
 * @c: the tally
 * @ev: any event; switches and lost-event notes matter
 *
 * The time from a switch to a task until the next switch away on that CPU
 * is the task's, added to its cpu_ns.  After lost events nothing is known
 * about a CPU until its next switch.  The idle task (pid 0) is not counted.
 * The tracker must have seen EV first (it makes the tasks).
 */
void f2t_cputime_event(struct f2t_cputime *c, const struct f2t_event *ev);

#endif
