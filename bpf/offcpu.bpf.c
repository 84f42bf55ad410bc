// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Off-CPU episodes, in the kernel.  At sched_switch a task leaving in a
 * sleeping state gets its time, its kernel and user stack ids, its user
 * registers and a copy of the top of its user stack noted, in its task
 * storage (the conversion unwinds the innermost user frames from these with
 * the binaries' CFI: the C library's wrappers have no frame pointer, and the
 * frame-pointer walk skips their caller); sched_waking adds who woke it and from where; at the
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
 * Records go to a ring per CPU that the recorder maps and polls
 * (capture/offcpu_rec.h), written with plain stores: a BPF ring buffer's
 * output (a lock taken with interrupts saved, and a commit) cost more than
 * the rest of the switch in (bench-offcpu.sh).  No wakeups: a wakeup per
 * record woke the recorder at every context switch, which is what the
 * ping-pong livelocked on; the recorder polls more often while a ring
 * fills.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "capture/offcpu_rec.h"
#include "counters.bpf.h"
#include "stacks.bpf.h"
#include "targets.bpf.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the recorder before loading. */
const volatile __u64 min_ns = 1000;
const volatile __u64 cpu_ring_bytes = 1 << 20;	/* each CPU's ring: a power of two */
const volatile __u32 ustack_bytes = F2T_OFFCPU_USTACK_COPY;	/* user stack copied at most */
const volatile __u32 ustack_min = F2T_OFFCPU_USTACK_MIN;	/* ... at least, when it fits */
const volatile bool ustack_fit = true;	/* copy to the frame pointer's frame when near */
/*
 * Test hooks, for bench-offcpu.sh to price the parts: off, no waker stacks,
 * no ring output; bare: the switch and waking programs return at once (what
 * having them run at all costs, the floor under any episode's work).
 */
const volatile bool waker_stacks = true;
const volatile bool ring_output = true;
const volatile bool bare = false;

/*
 * A thread's pending episode, from its switch out to its switch in (its
 * start_ns 0 when none): the record the switch in hands to the ring, with
 * its copy of the user stack after it.  Task storage rather than a map keyed
 * by thread: no hashing, nothing to delete at each switch in, room only for
 * the threads that block, freed with them.
 */
struct pending {
	struct f2t_offcpu_rec rec;
	__u8 ustack[F2T_OFFCPU_USTACK_MAX];
	struct site_cache out_site, waking_site;	/* its last sites (stacks.bpf.h) */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct pending);
} pending SEC(".maps");

/* The rings, one element per CPU: sized by the recorder (cpu_ring_bytes). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, F2T_OFFCPU_RING_HDR + (1 << 20));
} rings SEC(".maps");

/* Hands LEN bytes at REC to this CPU's ring; false when it is full. */
static __always_inline bool ring_put(const void *rec, __u64 len)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u8 *r = bpf_map_lookup_elem(&rings, &cpu);
	__u64 head, tail, off, skip = 0;

	if (!r || len > F2T_OFFCPU_REC_MAX)
		return false;
	head = *(volatile __u64 *)r;
	tail = *(volatile __u64 *)(r + F2T_OFFCPU_RING_TAIL);
	off = head & (cpu_ring_bytes - 8);
	if (off > cpu_ring_bytes - F2T_OFFCPU_REC_MAX)
		skip = cpu_ring_bytes - off;	/* too near the end: a mark, then the start */
	if (head + skip + len - tail > cpu_ring_bytes)
		return false;
	if (skip) {
		*(__u64 *)(r + F2T_OFFCPU_RING_HDR + off) = 0;
		off = 0;
	}
	if (bpf_probe_read_kernel(r + F2T_OFFCPU_RING_HDR + off, len, rec))
		return false;
	/*
	 * The record before the head.  x86 keeps stores in order: a plain
	 * store, once the compiler may not move it (an atomic add, a full
	 * barrier, waited for the record's stores to reach the cache, 0.05 us).
	 */
#if defined(__TARGET_ARCH_x86)
	barrier();
	*(volatile __u64 *)r = head + skip + len;
#else
	__sync_fetch_and_add((__u64 *)r, skip + len);
#endif
	return true;
}

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

/*
 * Copies the top of the user stack, from SP up, into DST: what unwinding
 * the innermost frames needs.  When the frame pointer FP points a little
 * above SP, the frames below the innermost frame-pointer frame (a C
 * library wrapper's, which keeps none) end at FP + 16, where that frame's
 * return address is and the frame-pointer walk goes on: so far, and at
 * least ustack_min (FP may be a register put to other use, holding an
 * address on the stack).  Else, and when ustack_fit is off (--call-graph
 * dwarf), ustack_bytes.  Where the stack's mapping ends sooner (a shallow
 * main thread), up to the end of SP's page.  Returns the bytes copied, a
 * multiple of 8.
 */
static __always_inline __u32 copy_user_stack(__u8 *dst, __u64 sp, __u64 fp)
{
	__u32 n = ustack_bytes & ~7u;

	if (!sp || !n)
		return 0;
	if (ustack_fit && fp > sp && fp - sp + 16 < n) {
		n = ((__u32)(fp - sp) + 16 + 7) & ~7u;
		if (n < ustack_min)
			n = ustack_min;
	}
	if (n > F2T_OFFCPU_USTACK_MAX)
		n = F2T_OFFCPU_USTACK_MAX;
	if (!bpf_probe_read_user(dst, n, (void *)sp))
		return n;
	n = (__u32)(4096 - (sp & 4095)) & ~7u;
	if (n > F2T_OFFCPU_USTACK_MAX || n > ustack_bytes)
		return 0;
	return n && !bpf_probe_read_user(dst, n, (void *)sp) ? n : 0;
}

static __always_inline void switch_out(void *ctx, struct task_struct *prev, __u32 state,
				       __u64 now, bool direct)
{
	__u32 tid = prev->pid, tgid = prev->tgid;
	struct pending *p;
	struct pt_regs *regs;

	if (!tid || !wanted(tgid))
		return;
	p = bpf_task_storage_get(&pending, prev, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!p) {
		count(F2T_OFFCPU_DROPPED_MAP);
		return;
	}
	/* The waker's fields first: a waking on another CPU may already fill them. */
	p->rec.waker_tid = p->rec.waker_tgid = 0;
	p->rec.waker_kstack = p->rec.waker_ustack = -2;	/* ENOENT: no waker seen */
	p->rec.start_ns = now;
	p->rec.tid = tid;
	p->rec.tgid = tgid;
	p->rec.state = state;
	p->rec.uip = p->rec.usp = p->rec.ufp = 0;
	p->rec.ucopy = 0;
	p->rec.zero = 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(prev);
	if (!(prev->flags & 0x00200000 /* PF_KTHREAD */)) {
		p->rec.uip = PT_REGS_IP(regs);
		p->rec.usp = PT_REGS_SP(regs);
		p->rec.ufp = PT_REGS_FP(regs);
		p->rec.ucopy = copy_user_stack(p->ustack, p->rec.usp, p->rec.ufp);
	}
	/* current is still prev: the stacks are where it blocked. */
	stacks_of(ctx, prev, regs, false, &p->rec.kstack, &p->rec.ustack, direct, p->ustack,
		  p->rec.ucopy, &p->out_site);
}

static __always_inline void switch_in(struct task_struct *next, __u64 now)
{
	struct pending *p = bpf_task_storage_get(&pending, next, NULL, 0);
	__u64 len;
	__u32 n;

	if (!p || !p->rec.start_ns)
		return;
	if (now - p->rec.start_ns >= min_ns && ring_output) {
		p->rec.end_ns = now;
		p->rec.cpu = bpf_get_smp_processor_id();
		n = p->rec.ucopy;
		if (n > F2T_OFFCPU_USTACK_MAX)
			n = 0;	/* cannot happen: copy_user_stack() bounds it */
		len = sizeof(p->rec) + (n & ~7u);
		if (ring_put(p, len))
			count(F2T_OFFCPU_EPISODES);
		else
			count(F2T_OFFCPU_DROPPED_RING);
	}
	p->rec.start_ns = 0;
}

/*
 * Each program comes twice: checking a site's kernel stack by direct reads,
 * and by a copy for kernels without bpf_rdonly_cast() (stacks.bpf.h).  The
 * recorder loads one of each pair.
 */
static __always_inline int on_switch(void *ctx, bool preempt, struct task_struct *prev,
				     struct task_struct *next, unsigned int prev_state, bool direct)
{
	__u64 now;
	__u32 state;

	if (bare)
		return 0;
	now = bpf_ktime_get_ns();
	state = preempt ? 0 : report_state(prev, prev_state);
	if (state)
		switch_out(ctx, prev, state, now, direct);
	switch_in(next, now);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	return on_switch(ctx, preempt, prev, next, prev_state, CAN_READ_DIRECT);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch_c, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	return on_switch(ctx, preempt, prev, next, prev_state, false);
}

static __always_inline int on_waking(void *ctx, struct task_struct *p, bool direct)
{
	struct pending *b, *w;
	struct task_struct *current;
	__u64 id;

	if (bare)
		return 0;
	b = bpf_task_storage_get(&pending, p, NULL, 0);
	if (!b || !b->rec.start_ns)
		return 0;
	/* current is the waker: a task, or whatever an interrupt came in on. */
	id = bpf_get_current_pid_tgid();
	b->rec.waker_tid = (__u32)id;
	b->rec.waker_tgid = (__u32)(id >> 32);
	if (!waker_stacks || bpf_ktime_get_ns() - b->rec.start_ns < min_ns) {
		/* Most likely a short episode, not kept: no stacks walked. */
		b->rec.waker_kstack = b->rec.waker_ustack = -61;	/* ENODATA */
		return 0;
	}
	current = bpf_get_current_task_btf();
	/* The waker's last waking site: with its own episodes' storage, when it has some. */
	w = bpf_task_storage_get(&pending, current, NULL, 0);
	stacks_of(ctx, current, (struct pt_regs *)bpf_task_pt_regs(current), true,
		  &b->rec.waker_kstack, &b->rec.waker_ustack, direct, NULL, 0,
		  w ? &w->waking_site : NULL);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(offcpu_waking, struct task_struct *p)
{
	return on_waking(ctx, p, CAN_READ_DIRECT);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(offcpu_waking_c, struct task_struct *p)
{
	return on_waking(ctx, p, false);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(offcpu_fork, struct task_struct *parent, struct task_struct *child)
{
	follow_fork(parent, child);
	return 0;
}
