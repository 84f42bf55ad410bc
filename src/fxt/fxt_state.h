/* SPDX-License-Identifier: MIT */
/*
 * Linux task states (sched_switch's prev_state letters) as FXT thread states.
 */
#ifndef F2T_FXT_STATE_H
#define F2T_FXT_STATE_H

#include <stdbool.h>

/**
 * fxt_linux_state() - the FXT thread state for a Linux prev_state string
 * @linux_state: "R", "R+", "S", "D", "T", "t", "Z", "X", "I", "P", or a
 *               combination such as "D|K"; NULL is taken as unknown
 * @canonical: set true when @linux_state is exactly what the FXT state
 *             already says ("R" or "R+" for running, "S" for blocked, "T"
 *             for suspended, "Z" for dying, "X" for dead), so nothing is
 *             lost by dropping the Linux letters; false when the writer
 *             should keep them (e.g. "D", which FXT also calls blocked)
 *
 * The first letter decides: R -> 1 running (preempted), S, D, I -> 3
 * blocked, T, t -> 2 suspended, Z -> 4 dying, X, x -> 5 dead, anything
 * else -> 3 blocked.  "R+" counts as canonical because the '+' only marks
 * a preemption, which is what FXT's running state means for an outgoing
 * thread; keeping it would cost 8 bytes on most preemptions.
 *
 * Return: the FXT state, enum fxt_thread_state.
 */
int fxt_linux_state(const char *linux_state, bool *canonical);

#endif
