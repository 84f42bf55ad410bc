/* SPDX-License-Identifier: MIT */
/*
 * The scheduling tracker: sees every event before the writers do, keeps the
 * task table true (names, processes, priorities; it is the table's one
 * owner during a run, model/tasks.h) and checks each CPU's
 * sequence of switches, counting the gaps the kernel left (see
 * docs/kernel.md: some kernels emit no switch away from the idle task).
 */
#ifndef F2T_TRACKER_H
#define F2T_TRACKER_H

#include "model/event.h"
#include "model/stats.h"
#include "model/tasks.h"

struct f2t_tracker;

/*
 * HINTS (may be NULL) is what is known from elsewhere about tasks, such as
 * the snapshot taken when recording stopped: it supplies the process of a
 * task created during the trace when the trace itself cannot tell.
 */
struct f2t_tracker *f2t_tracker_new(struct f2t_tasks *tasks, const struct f2t_tasks *hints);
void f2t_tracker_free(struct f2t_tracker *t);
/*
 * Updates the task table for EV and counts into ST.  A task first seen as
 * EV's pid gets the name EV's source knew for it (ev->pid_comm), if any.
 * Returns 0 or -ENOMEM.
 */
int f2t_tracker_event(struct f2t_tracker *t, const struct f2t_event *ev,
		      struct f2t_stats *st);
/*
 * EV's task made now, ahead of f2t_tracker_event(), as that would make it
 * (ev->pid_comm's name included): for the first event of a run, whose task
 * the writers' begin() finds known, as if known from the start.  Returns 0
 * or -ENOMEM.
 */
int f2t_tracker_learn(struct f2t_tracker *t, const struct f2t_event *ev);
/*
 * The thread of a CPU sample that came with its process but tid -1 (taken
 * in a thread's exit after its pid was released): the task the last switch
 * put on the sample's CPU, when it is of the same process.  0 when not known.
 */
int32_t f2t_tracker_sample_tid(struct f2t_tracker *t, const struct f2t_event *ev);

#endif
