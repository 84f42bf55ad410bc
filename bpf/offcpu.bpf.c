// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Off-CPU episodes, in the kernel.  At sched_switch a task leaving in a
 * sleeping state gets its time and its kernel and user stack ids noted,
 * keyed by thread; sched_waking adds who woke it and from where; at the
 * switch back in, an episode at least min_ns long becomes one record in
 * the ring buffer.  Only the traced processes (and the processes they
 * fork) when the filter is on.
 *
 * Stack walks are most of the cost.  The blocked thread's are taken at the
 * switch out, before the episode's length is known: nothing reads another
 * task's user stack, and bpf_get_task_stack() on a sleeping task leaves out
 * every scheduler function (do_nanosleep, schedule_timeout, mutex_lock and
 * the like), which are what an off-CPU stack is read for.  A thread blocking
 * again where it blocked before reuses the stacks walked then, after a
 * check (stacks.bpf.h).  The waker's are taken only when the thread has
 * already been blocked min_ns when woken: most wakeups of short episodes,
 * which are not kept, walk nothing.
 *
 * The ring buffer wakes its reader only when a quarter full: a wakeup per
 * record would wake the recorder at every context switch, which is what
 * the ping-pong livelocked on.  The recorder polls it besides.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "capture/offcpu_rec.h"
#include "counters.bpf.h"
#include "stacks.bpf.h"
#include "targets.bpf.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the recorder before loading. */
const volatile __u64 min_ns = 1000;
const volatile __u64 ring_bytes = 1;

/* A task's pending episode, from its switch out to its switch in. */
struct blocked {
	__u64 start_ns;
	__u32 waker_tid, waker_tgid;
	__s32 kstack, ustack;
	__s32 waker_kstack, waker_ustack;
	__u32 state, tgid;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct blocked);
} blocked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);	/* resized by the recorder */
} events SEC(".maps");

/*
 * The state as sched_switch's prev_state field reports it: the task-state
 * bits TASK_REPORT keeps (include/linux/sched.h: 0x01 S ... 0x40 P), the
 * highest one winning; TASK_IDLE (0x402) is I, an rtlock wait is D.  0 for
 * a task still runnable, and for one that is exiting (it never comes back).
 */
static __always_inline __u32 report_state(struct task_struct *p, unsigned int prev_state)
{
	__u32 s = prev_state & 0x7f;
	int bit = -1;

	if (p->exit_state)
		return 0;
	if (prev_state == 0x402)
		return F2T_OFFCPU_I;
	if (prev_state & 0x1000)
		return F2T_OFFCPU_D;
	for (int i = 6; i >= 0; i--) {
		if (s & (1u << i)) {
			bit = i;
			break;
		}
	}
	return bit < 0 ? 0 : 1u << bit;
}

static __always_inline void switch_out(void *ctx, struct task_struct *prev, __u32 state,
				       __u64 now)
{
	__u32 tid = prev->pid, tgid = prev->tgid;
	struct blocked b = {
		.start_ns = now,
		.state = state,
		.tgid = tgid,
		.waker_kstack = -2, .waker_ustack = -2,	/* ENOENT: no waker seen */
	};

	if (!tid || !wanted(tgid))
		return;
	/* current is still prev: the stacks are where it blocked. */
	stacks_of(ctx, prev, false, &b.kstack, &b.ustack);
	if (bpf_map_update_elem(&blocked, &tid, &b, BPF_ANY))
		count(F2T_OFFCPU_DROPPED_MAP);
}

static __always_inline void switch_in(struct task_struct *next, __u64 now)
{
	__u32 tid = next->pid;
	struct blocked *b = bpf_map_lookup_elem(&blocked, &tid);
	struct f2t_offcpu_rec *r;

	if (!b)
		return;
	if (now - b->start_ns >= min_ns) {
		r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
		if (r) {
			r->start_ns = b->start_ns;
			r->end_ns = now;
			r->tid = tid;
			r->tgid = b->tgid;
			r->waker_tid = b->waker_tid;
			r->waker_tgid = b->waker_tgid;
			r->kstack = b->kstack;
			r->ustack = b->ustack;
			r->waker_kstack = b->waker_kstack;
			r->waker_ustack = b->waker_ustack;
			r->state = b->state;
			r->cpu = bpf_get_smp_processor_id();
			bpf_ringbuf_submit(r, bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >
						      ring_bytes / 4 ? BPF_RB_FORCE_WAKEUP
								     : BPF_RB_NO_WAKEUP);
			count(F2T_OFFCPU_EPISODES);
		} else {
			count(F2T_OFFCPU_DROPPED_RING);
		}
	}
	bpf_map_delete_elem(&blocked, &tid);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 state = preempt ? 0 : report_state(prev, prev_state);

	if (state)
		switch_out(ctx, prev, state, now);
	switch_in(next, now);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(offcpu_waking, struct task_struct *p)
{
	__u32 tid = p->pid;
	struct blocked *b = bpf_map_lookup_elem(&blocked, &tid);
	__u64 id;

	if (!b)
		return 0;
	/* current is the waker: a task, or whatever an interrupt came in on. */
	id = bpf_get_current_pid_tgid();
	b->waker_tid = (__u32)id;
	b->waker_tgid = (__u32)(id >> 32);
	if (bpf_ktime_get_ns() - b->start_ns < min_ns) {
		/* Most likely a short episode, not kept: no stacks walked. */
		b->waker_kstack = b->waker_ustack = -61;	/* ENODATA */
		return 0;
	}
	stacks_of(ctx, bpf_get_current_task_btf(), true, &b->waker_kstack, &b->waker_ustack);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(offcpu_fork, struct task_struct *parent, struct task_struct *child)
{
	follow_fork(parent, child);
	return 0;
}
