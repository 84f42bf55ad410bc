/* SPDX-License-Identifier: MIT */
/*
 * CPU time per thread, summed from sched_switch events as they stream past,
 * so a writer can put the busiest processes first.  Memory grows with the
 * number of threads seen running, never with the number of events.
 */
#ifndef F2T_CPUTIME_H
#define F2T_CPUTIME_H

#include <stdint.h>

#include "model/event.h"

struct f2t_cputime;

/**
 * f2t_cputime_new() - an empty tally
 *
 * Return: the tally, or NULL with errno set.
 */
struct f2t_cputime *f2t_cputime_new(void);

/** f2t_cputime_free() - free C (NULL is fine) */
void f2t_cputime_free(struct f2t_cputime *c);

/**
 * f2t_cputime_event() - account for EV
 * @c: the tally
 * @ev: any event; switches and lost-event notes matter
 *
 * The time from a switch to a task until the next switch away on that CPU
 * is the task's.  After lost events nothing is known about a CPU until its
 * next switch.  The idle task (pid 0) is not counted.
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_cputime_event(struct f2t_cputime *c, const struct f2t_event *ev);

/**
 * f2t_cputime_get() - CPU time of TID so far, in ns (0 if never seen running)
 * @c: the tally
 * @tid: the thread
 */
uint64_t f2t_cputime_get(const struct f2t_cputime *c, int32_t tid);

#endif
