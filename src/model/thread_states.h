/* SPDX-License-Identifier: MIT */
/*
 * Thread states over time: a model stage any consumer of the event stream
 * can run (the report does; a writer could).  Fed every event in order,
 * after the tracker, it follows each thread through Running, Runnable
 * (after a wakeup, or after being switched out while still runnable),
 * Sleeping (S), Blocked (D), Idle (I), Stopped (T, t, P) and Dead, and hands
 * out each stretch of one state as a span when it ends: where it ran,
 * who woke it, whether it moved CPU, how the stretch ended.
 *
 * What the trace does not show is a span of state UNKNOWN, never guessed:
 * a thread's time before its first event says what it is doing, the time
 * around a switch the kernel did not record (docs/kernel.md: some CPUs
 * emit no switch away from idle), and everything lost events may have
 * hidden (a CPU's running task until its next event; any thread's wait
 * that spans a loss on any CPU).
 *
 * Memory grows with threads (one entry each in a util/idmap) and CPUs,
 * never with events.
 */
#ifndef F2T_THREAD_STATES_H
#define F2T_THREAD_STATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/event.h"

enum f2t_tstate {
	F2T_TS_UNKNOWN,		/* the trace does not tell (see f2t_tstate_why) */
	F2T_TS_RUNNING,		/* on a CPU */
	F2T_TS_WOKEN,		/* runnable since a wakeup, waiting for a CPU */
	F2T_TS_PREEMPTED,	/* runnable since it was switched out in R, waiting */
	F2T_TS_SLEEPING,	/* S: interruptible sleep */
	F2T_TS_BLOCKED,		/* D: uninterruptible (D, D|K, ...) */
	F2T_TS_IDLE,		/* I: an idle kernel thread (TASK_IDLE) */
	F2T_TS_STOPPED,		/* T stopped, t traced, P parked */
	F2T_TS_DEAD,		/* X, Z: switched out for the last time */
	F2T_TS_COUNT
};

/* Why a span is UNKNOWN. */
enum f2t_tstate_why {
	F2T_TSW_NONE,
	F2T_TSW_BEFORE,		/* the thread existed before its first telling event */
	F2T_TSW_GAP,		/* around a switch the kernel did not record */
	F2T_TSW_LOST,		/* lost events could have changed it */
	F2T_TSW_UNSEEN,		/* a sleep ended with no wakeup recorded, or a state letter we do not know */
	F2T_TSW_COUNT
};

/* span.cpu when no CPU applies. */
#define F2T_TS_NO_CPU UINT32_MAX

/*
 * One stretch of one state of one thread, [start, end] in trace ns.  tid 0
 * is a CPU's idle task: its RUNNING spans are the CPU's idle time.
 */
struct f2t_tstate_span {
	int32_t tid;
	enum f2t_tstate state;
	enum f2t_tstate_why why;	/* UNKNOWN only */
	uint64_t start, end;
	/* RUNNING: the CPU.  WOKEN, PREEMPTED ended by a switch to the
	 * thread: the CPU it then ran on.  Else F2T_TS_NO_CPU. */
	uint32_t cpu;
	/* The state after this span; F2T_TS_COUNT when the trace ended. */
	enum f2t_tstate next;
	/*
	 * RUNNING: ended by a sched_switch away from the thread (a context
	 * switch).  WOKEN, PREEMPTED: ended by a sched_switch to it, so the
	 * wait's length is known (a wakeup latency, for WOKEN).
	 */
	bool switched;
	bool migrated;		/* RUNNING: on another CPU than the thread's last run */
	bool new_task;		/* WOKEN: its first wakeup (sched_wakeup_new) */
	/* WOKEN: who woke it: the task that ran sched_waking (0: an interrupt
	 * on an idle CPU), the parent for a new task; -1 unknown. */
	int32_t waker;
	uint32_t waker_cpu;
	/* The consumer's bytes for this thread (f2t_tstates_new()'s
	 * user_size, zeroed at first); NULL for tid 0.  Valid during the call. */
	void *user;
};

/* Receives each span as it ends; a non-zero return stops and is passed on. */
typedef int (*f2t_tstate_fn)(void *ctx, const struct f2t_tstate_span *s);

struct f2t_tstates;

/**
 * f2t_tstates_new() - a thread-state stage
 * @user_size: bytes the consumer keeps per thread, handed back in each span
 * @fn: called with each span as it ends
 * @ctx: passed to @fn
 *
 * Return: the stage, or NULL with errno set (ENOMEM).
 */
struct f2t_tstates *f2t_tstates_new(size_t user_size, f2t_tstate_fn fn, void *ctx);

/** f2t_tstates_free() - free @t; NULL is fine */
void f2t_tstates_free(struct f2t_tstates *t);

/**
 * f2t_tstates_event() - one event, after every earlier one
 *
 * Return: 0, -ENOMEM, or what the span callback returned to stop.
 */
int f2t_tstates_event(struct f2t_tstates *t, const struct f2t_event *ev);

/**
 * f2t_tstates_end() - close every open span at the last event's time
 *
 * Spans still open end with next F2T_TS_COUNT.  Return: as f2t_tstates_event().
 */
int f2t_tstates_end(struct f2t_tstates *t);

/**
 * f2t_tstates_each() - every thread met, in the order met
 * @fn: called with the thread's tid and consumer bytes; non-zero stops
 *
 * Return: 0, or what @fn returned to stop.
 */
int f2t_tstates_each(struct f2t_tstates *t, int (*fn)(void *ctx, int32_t tid, void *user),
		     void *ctx);

/** f2t_tstates_first() - the first event's time (0 before any) */
uint64_t f2t_tstates_first(const struct f2t_tstates *t);

/** f2t_tstates_last() - the last event's time so far */
uint64_t f2t_tstates_last(const struct f2t_tstates *t);

/* A task's share of a CPU over a stretch of time; tid -1: unknown. */
struct f2t_tstate_holder {
	int32_t tid;
	uint64_t ns;
};

/* How many of a CPU's latest holders are remembered. */
#define F2T_TS_HISTORY 16

/**
 * f2t_tstates_holders() - the tasks that held a CPU over [@from, @to]
 * @cpu: the CPU
 * @out: filled with up to @max holders, the longest first (tid 0: idle;
 *	 -1: time the trace does not account for)
 * @complete: set false when the stretch reaches back past the last
 *	 F2T_TS_HISTORY changes remembered (the earliest part is not listed)
 *
 * For a span callback to say what ran while a thread waited: @to no later
 * than the event being handled.
 *
 * Return: the number of holders written.
 */
size_t f2t_tstates_holders(const struct f2t_tstates *t, uint32_t cpu, uint64_t from,
			   uint64_t to, struct f2t_tstate_holder *out, size_t max,
			   bool *complete);

/**
 * f2t_tstates_parse_state() - the state a sched_switch prev_state leaves
 * @s: the letters as the kernel prints them ("S", "R+", "D|K", "I", ...)
 *
 * Return: the state; F2T_TS_UNKNOWN for letters it does not know.
 */
enum f2t_tstate f2t_tstates_parse_state(const char *s);

/** f2t_tstate_name() - "running", "woken", ... (stable: used in outputs) */
const char *f2t_tstate_name(enum f2t_tstate s);

/** f2t_tstate_why_name() - "before_first_event", "gap", "lost", "unseen" */
const char *f2t_tstate_why_name(enum f2t_tstate_why w);

/* Counts of what the stage met. */
struct f2t_tstates_counts {
	uint64_t gaps;			/* switches the kernel did not record */
	uint64_t lost_notes;		/* F2T_EV_LOST events */
	uint64_t lost_events;		/* events they said were lost (0: uncounted) */
	uint64_t unknown_letters;	/* prev_state letters not understood */
	uint64_t wakeups_while_running;	/* sched_waking of a task on a CPU */
};

/** f2t_tstates_counts() - what the stage met so far */
const struct f2t_tstates_counts *f2t_tstates_counts(const struct f2t_tstates *t);

#endif
