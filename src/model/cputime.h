/* SPDX-License-Identifier: MIT */
/*
 * CPU time per thread, summed from sched_switch events as they stream past,
 * so a writer can put the busiest processes first.  The sums are the
 * tally's own, indexed by the tasks' seq (model/tasks.h): the task table is
 * the tracker's, and a switch costs one lookup of the task put on the CPU.
 */
#ifndef F2T_CPUTIME_H
#define F2T_CPUTIME_H

#include <stdint.h>

#include "model/event.h"
#include "model/tasks.h"

struct f2t_cputime;

/**
 * f2t_cputime_new() - an empty tally over the threads of @tasks
 * @tasks: the task table, which the tracker keeps (read here, not changed)
 *
 * Return: the tally, or NULL with errno set.
 */
struct f2t_cputime *f2t_cputime_new(const struct f2t_tasks *tasks);

/** f2t_cputime_free() - free C (NULL is fine) */
void f2t_cputime_free(struct f2t_cputime *c);

/**
 * f2t_cputime_event() - account for EV
 * @c: the tally
 * @ev: any event; switches and lost-event notes matter
 *
 * The time from a switch to a task until the next switch away on that CPU
 * is the task's.  After lost events nothing is known about a CPU until its
 * next switch.  The idle task (pid 0) is not counted.  The tracker must
 * have seen EV first (it makes the tasks).
 *
 * Return: 0, or -ENOMEM.
 */
int f2t_cputime_event(struct f2t_cputime *c, const struct f2t_event *ev);

/** f2t_cputime_of() - the CPU time of @task so far, in ns */
uint64_t f2t_cputime_of(const struct f2t_cputime *c, const struct f2t_task *task);

#endif
