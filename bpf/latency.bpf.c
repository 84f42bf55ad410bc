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
 * Per wakeup and per switch in: one task-storage lookup, which is a
 * pointer in the task, and a store; no hashing, nothing allocated or
 * freed (a hash map keyed by thread cost an update at each wakeup and a
 * lookup and a delete at each switch: the armed trigger cost more than a
 * whole recording).  A thread gets its storage when first woken, if it is
 * wanted: the targets map is asked only while it has none.  No stack is
 * walked.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record/latency_rec.h"
#include "targets.bpf.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the recorder before loading. */
const volatile __u64 threshold_ns = 10000000;

/* When a watched thread was woken, until it runs (0: not waiting); freed with the thread. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} woken SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} hits SEC(".maps");

static __always_inline void woke(struct task_struct *p)
{
	__u64 *at;

	/*
	 * A thread woken while it still runs (its sleep was cut short before
	 * it switched out) has no wait to measure: kept, its time would be
	 * taken for the wait of its next switch in, after a preemption.
	 */
	if (p->on_cpu)
		return;
	at = bpf_task_storage_get(&woken, p, NULL, 0);
	if (!at && p->pid && wanted(p->tgid))
		at = bpf_task_storage_get(&woken, p, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (at)
		*at = bpf_ktime_get_ns();
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
	__u64 *at = bpf_task_storage_get(&woken, next, NULL, 0), now, wake;
	struct f2t_latency_rec *r;

	if (!at || !*at)
		return 0;
	wake = *at;
	*at = 0;
	now = bpf_ktime_get_ns();
	if (now - wake <= threshold_ns)
		return 0;
	r = bpf_ringbuf_reserve(&hits, sizeof(*r), 0);
	if (!r)
		return 0;
	r->wake_ns = wake;
	r->run_ns = now;
	r->tid = next->pid;
	r->tgid = next->tgid;
	r->cpu = bpf_get_smp_processor_id();
	r->pad = 0;
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), next->comm);
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(latency_fork, struct task_struct *parent, struct task_struct *child)
{
	follow_fork(parent, child);
	return 0;
}
