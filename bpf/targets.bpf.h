/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The traced processes, for the programs that watch only them (the
 * command's, or the -p ones): their tgids, filled by the recorder before
 * attaching (record/bpf_targets.h), and the processes they fork, added at
 * the fork.  A program using this sets `filter` (a const volatile) and
 * calls follow_fork() from its sched_process_fork program.
 */
#ifndef F2T_TARGETS_BPF_H
#define F2T_TARGETS_BPF_H

/* Set by the recorder before loading: off, every task is wanted. */
const volatile bool filter = false;

/* The traced processes (tgids); unused when filter is off. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} targets SEC(".maps");

static __always_inline bool wanted(__u32 tgid)
{
	return !filter || bpf_map_lookup_elem(&targets, &tgid);
}

/* A traced process's new processes are traced too (threads share its tgid). */
static __always_inline void follow_fork(struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (filter && bpf_map_lookup_elem(&targets, &ptgid))
		bpf_map_update_elem(&targets, &ctgid, &one, BPF_ANY);
}

#endif
