/* SPDX-License-Identifier: MIT */
/*
 * What the wakeup-latency trigger's BPF program (bpf/latency.bpf.c) hands
 * the recorder: a record when a watched thread has waited longer than the
 * threshold to run since its wakeup, and another once it ran.  Included by
 * the BPF program too, so it uses the kernel's __u32/__u64 only.
 */
#ifndef F2T_LATENCY_REC_H
#define F2T_LATENCY_REC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum {
	F2T_LATENCY_WAITING = 1,	/* still waiting, wait_ns so far */
	F2T_LATENCY_ENDED,		/* a WAITING one ran: wait_ns in all */
	F2T_LATENCY_AT_MOST,		/* the same, wait_ns an upper bound */
	F2T_LATENCY_GONE,		/* a WAITING one exited before it was seen to run */
};

struct f2t_latency_rec {
	__u64 wait_ns;
	__u64 at_ns;		/* when seen, bpf_ktime_get_ns() */
	__u32 tid, tgid;
	__u32 cpu;		/* whose run queue it waited on */
	__u32 kind;		/* F2T_LATENCY_* */
	char comm[16];
};

#endif
