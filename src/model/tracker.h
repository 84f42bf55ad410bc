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

/* Here for the inline f2t_tracker_event() below; only tracker.c touches the fields. */
struct f2t_tracker {
	struct f2t_tasks *tasks;
	const struct f2t_tasks *hints;
	/* Per CPU: the task the last switch put there (-1: not known yet). */
	int32_t current[F2T_MAX_CPUS];
};

/*
 * HINTS (may be NULL) is what is known from elsewhere about tasks, such as
 * the snapshot taken when recording stopped: it supplies the process of a
 * task created during the trace when the trace itself cannot tell.
 */
struct f2t_tracker *f2t_tracker_new(struct f2t_tasks *tasks, const struct f2t_tasks *hints);
void f2t_tracker_free(struct f2t_tracker *t);

/* f2t_tracker_event() of any event but a switch or a waking of known tasks. */
int f2t_tracker_event_slow(struct f2t_tracker *t, const struct f2t_event *ev,
			   struct f2t_stats *st);

/*
 * A switch's or waking's task TID, known and with a name or priority to
 * take: inline, two or three an event.  False when it is not known yet.
 */
static inline bool f2t_tracker_saw(struct f2t_tracker *t, int32_t tid, const char *comm,
				   bool words, int32_t prio)
{
	struct f2t_task *tk;

	if (tid == 0)		/* the idle tasks: one koid, named by their own records */
		return true;
	tk = f2t_tasks_find_mut(t->tasks, tid);
	if (!tk)
		return false;
	if (comm)
		f2t_task_name(tk, comm, words);
	if (prio >= 0)
		tk->prio = prio;
	return true;
}

/*
 * Updates the task table for EV and counts into ST.  A task first seen as
 * EV's pid gets the name EV's source knew for it (ev->pid_comm), if any.
 * Returns 0 or -ENOMEM.
 *
 * Inline for the switches and wakings of tasks already known, on CPUs that
 * ran what the event says: most events of a scheduling trace, and their
 * calls cost as much as the work.  Anything else goes the whole way.
 */
static inline int f2t_tracker_event(struct f2t_tracker *t, const struct f2t_event *ev,
				    struct f2t_stats *st)
{
	int32_t *cur = ev->cpu < F2T_MAX_CPUS ? &t->current[ev->cpu] : NULL;
	bool sw = ev->kind == F2T_EV_SWITCH;
	bool wake = ev->kind == F2T_EV_WAKING || ev->kind == F2T_EV_WAKEUP;

	/* No scheduling gap, and the event's own task known or the switch's prev. */
	if (!(sw || wake) || !cur || *cur != ev->pid || ev->pid < 0 ||
	    (wake && ev->pid && !f2t_tasks_find(t->tasks, ev->pid)) ||
	    (sw && ev->pid != ev->sw.prev_pid))
		return f2t_tracker_event_slow(t, ev, st);
	if (sw) {
		if (!f2t_tracker_saw(t, ev->sw.prev_pid, ev->sw.prev_comm, ev->comm_words,
				     ev->sw.prev_prio) ||
		    !f2t_tracker_saw(t, ev->sw.next_pid, ev->sw.next_comm, ev->comm_words,
				     ev->sw.next_prio))
			return f2t_tracker_event_slow(t, ev, st);
		*cur = ev->sw.next_pid;
	} else if (!f2t_tracker_saw(t, ev->wake.pid, ev->wake.comm, ev->comm_words,
				    ev->wake.prio)) {
		return f2t_tracker_event_slow(t, ev, st);
	}
	st->total_events++;
	st->events[ev->kind]++;
	return 0;
}

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
