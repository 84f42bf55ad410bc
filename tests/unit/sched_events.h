/* SPDX-License-Identifier: MIT */
/*
 * Scheduling events made by hand for tests, as a source hands them out:
 * ev->pid is the task that ran when the event was recorded (common_pid),
 * so a switch's is its prev_pid.  Times are in ns.  Events name tasks as
 * ev_comm() says: "swapper" for 0, else "task" unless a test points it at
 * its own function.
 */
#ifndef F2T_TEST_SCHED_EVENTS_H
#define F2T_TEST_SCHED_EVENTS_H

#include <string.h>

#include "model/event.h"

static const char *ev_comm_default(int32_t tid)
{
	return tid ? "task" : "swapper";
}

static const char *(*ev_comm)(int32_t tid) = ev_comm_default;

/* prev goes out in @state ("S", "R+", "D"...), next comes in. */
static inline struct f2t_event ev_switch(uint64_t ts, uint32_t cpu, int32_t prev,
					 const char *state, int32_t next)
{
	struct f2t_event ev = { .kind = F2T_EV_SWITCH, .ts = ts, .cpu = cpu, .pid = prev };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_comm = ev_comm(prev);
	ev.sw.next_comm = ev_comm(next);
	strncpy(ev.sw.prev_state, state, F2T_STATE_LEN - 1);
	return ev;
}

/* @waker, running on @cpu, wakes @tid (sched_waking). */
static inline struct f2t_event ev_waking(uint64_t ts, uint32_t cpu, int32_t waker, int32_t tid)
{
	struct f2t_event ev = { .kind = F2T_EV_WAKING, .ts = ts, .cpu = cpu, .pid = waker };

	ev.wake.pid = tid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = (int32_t)cpu;
	ev.wake.comm = ev_comm(tid);
	return ev;
}

/* @parent forks @child (sched_process_fork), a thread of its process. */
static inline struct f2t_event ev_fork(uint64_t ts, uint32_t cpu, int32_t parent, int32_t child)
{
	struct f2t_event ev = { .kind = F2T_EV_FORK, .ts = ts, .cpu = cpu, .pid = parent };

	ev.fork.parent_pid = parent;
	ev.fork.child_pid = child;
	ev.fork.clone_thread = 1;
	ev.fork.parent_comm = ev_comm(parent);
	ev.fork.child_comm = ev_comm(child);
	return ev;
}

/* @parent wakes its new @child for the first time (sched_wakeup_new). */
static inline struct f2t_event ev_wakeup_new(uint64_t ts, uint32_t cpu, int32_t parent,
					     int32_t child)
{
	struct f2t_event ev = ev_waking(ts, cpu, parent, child);

	ev.kind = F2T_EV_WAKEUP_NEW;
	return ev;
}

/* @pid exits (sched_process_exit), still running. */
static inline struct f2t_event ev_exit(uint64_t ts, uint32_t cpu, int32_t pid)
{
	struct f2t_event ev = { .kind = F2T_EV_EXIT, .ts = ts, .cpu = cpu, .pid = pid };

	ev.exit.pid = pid;
	ev.exit.comm = ev_comm(pid);
	return ev;
}

/* The ring buffer of @cpu dropped @count events. */
static inline struct f2t_event ev_lost(uint64_t ts, uint32_t cpu, uint64_t count)
{
	struct f2t_event ev = { .kind = F2T_EV_LOST, .ts = ts, .cpu = cpu, .pid = -1 };

	ev.lost.count = count;
	return ev;
}

/* Any event @pid records while it runs on @cpu: a trace_marker write. */
static inline struct f2t_event ev_mark(uint64_t ts, uint32_t cpu, int32_t pid)
{
	struct f2t_event ev = { .kind = F2T_EV_PRINT, .ts = ts, .cpu = cpu, .pid = pid };

	ev.print.buf = "mark";
	ev.print.len = 4;
	return ev;
}

#endif
