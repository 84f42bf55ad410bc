// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flight recorder's latency trigger, in the kernel: the time a watched
 * thread is woken (sched_wakeup, sched_wakeup_new) is kept by thread; at
 * the sched_switch that runs it, a wait longer than threshold_ns becomes
 * one record in the ring buffer, which wakes the recorder at once (such
 * records are rare by design; the ring is small and a full one drops
 * them: the recorder needs only the first).  Only the traced processes
 * (and the processes they fork) when the filter is on.
 *
 * Per wakeup: a map update; per switch: a lookup and a delete.  No stack
 * is walked.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record/latency_rec.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the recorder before loading. */
const volatile __u64 threshold_ns = 10000000;
const volatile bool filter = false;

/* When each woken thread was woken, until it runs. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u64);
} woken SEC(".maps");

/* The traced processes (tgids); unused when filter is off. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} targets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} hits SEC(".maps");

static __always_inline void woke(struct task_struct *p)
{
	__u32 tid = p->pid, tgid = p->tgid;
	__u64 now = bpf_ktime_get_ns();

	if (!tid || (filter && !bpf_map_lookup_elem(&targets, &tgid)))
		return;
	bpf_map_update_elem(&woken, &tid, &now, BPF_ANY);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(latency_wakeup, struct task_struct *p)
{
	woke(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(latency_wakeup_new, struct task_struct *p)
{
	woke(p);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(latency_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u32 tid = next->pid;
	__u64 *at = bpf_map_lookup_elem(&woken, &tid), now, wake;
	struct f2t_latency_rec *r;

	if (!at)
		return 0;
	wake = *at;
	bpf_map_delete_elem(&woken, &tid);
	now = bpf_ktime_get_ns();
	if (now - wake <= threshold_ns)
		return 0;
	r = bpf_ringbuf_reserve(&hits, sizeof(*r), 0);
	if (!r)
		return 0;
	r->wake_ns = wake;
	r->run_ns = now;
	r->tid = tid;
	r->tgid = next->tgid;
	r->cpu = bpf_get_smp_processor_id();
	r->pad = 0;
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), next->comm);
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
	return 0;
}

/* A traced process's new processes are traced too (threads share its tgid). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(latency_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (filter && bpf_map_lookup_elem(&targets, &ptgid))
		bpf_map_update_elem(&targets, &ctgid, &one, BPF_ANY);
	return 0;
}
