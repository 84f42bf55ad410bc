/* SPDX-License-Identifier: MIT */
/*
 * What the wakeup-latency trigger's BPF program (bpf/latency.bpf.c) hands
 * the recorder: one record per wakeup of a watched thread that waited
 * longer than the threshold to run.  Included by the BPF program too, so
 * it uses the kernel's __u32/__u64 only.
 */
#ifndef F2T_LATENCY_REC_H
#define F2T_LATENCY_REC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

struct f2t_latency_rec {
	__u64 wake_ns;		/* sched_wakeup(_new), bpf_ktime_get_ns() */
	__u64 run_ns;		/* the sched_switch that ran it */
	__u32 tid, tgid;
	__u32 cpu;		/* where it ran */
	__u32 pad;
	char comm[16];
};

/*
 * What the program keeps of a watched thread, in task storage: its waits
 * up to its previous run and its involuntary switches then.  The recorder
 * writes it too, for the threads already there at the arming (from /proc).
 */
struct f2t_latency_seen {
	__u64 run_delay;	/* sched_info.run_delay after that run's wait */
	__u64 nivcsw;
	__u64 wanted;		/* 0: a thread of no watched process */
};

#endif
