// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flight recorder's latency trigger, in the kernel: at each sched_switch
 * that runs a watched thread, the wait it ends is taken from what the
 * scheduler itself keeps for delay accounting (the task's sched_info, as
 * /proc/PID/schedstat shows it), and a wait that began with a wakeup and
 * is longer than threshold_ns becomes one record in the ring buffer, which
 * wakes the recorder at once (such records are rare by design; the ring is
 * small and a full one drops them: the recorder needs only the first).
 * Only the traced processes (and the processes they fork) when the filter
 * is on.
 *
 * Why the scheduler's own figures: there is then no program at the wakeup
 * and no clock read at the switch.  An armed trigger that stamped each
 * wakeup into task storage and read it back at the switch cost about 5%
 * more than a whole recording on a ping-pong; this is one program, one
 * task-storage lookup per switch into a thread, a few loads and a store.
 *
 * The wait: sched_info.run_delay sums every wait to run the thread had,
 * and last_queued is when the current one began, in the run queue's clock
 * (0 once it runs; a migration folds the part waited on the old CPU into
 * run_delay and restarts last_queued, which is why run_delay is used).
 * Both need CONFIG_SCHED_INFO, and the run queue is reached through
 * CONFIG_FAIR_GROUP_SCHED's pointer: the recorder checks the kernel's BTF
 * for the fields before loading.  The kernel adds the current wait to run_delay just after this
 * tracepoint, so here run_delay + (rq clock - last_queued) is the total up
 * to this run, and the wait ending now is that total less the total at the
 * thread's previous run, kept in task storage.
 *
 * Wakeup or preemption: nivcsw, the thread's count of involuntary switches,
 * has grown since its previous run when it was switched out preempted
 * (still runnable); such a wait is not a wakeup latency and is not
 * reported.
 *
 * The recorder gives the watched threads already there at the arming their
 * storage from /proc; any other thread gets it at its first run seen (the
 * targets map is asked only then, and an unwatched thread keeps wanted 0).
 * The wait that first run ends is measured only for a thread that never
 * ran before (its wait since it was created): nothing says how another's
 * began.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record/latency_rec.h"
#include "targets.bpf.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the recorder before loading. */
const volatile __u64 threshold_ns = 10000000;

/* Freed with the thread. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct f2t_latency_seen);
} seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} hits SEC(".maps");

static __always_inline void report(struct task_struct *next, __u64 wait)
{
	struct f2t_latency_rec *r = bpf_ringbuf_reserve(&hits, sizeof(*r), 0);

	if (!r)
		return;
	/* In the trace's clock: it ran now, and was woken `wait` before. */
	r->run_ns = bpf_ktime_get_ns();
	r->wake_ns = r->run_ns - wait;
	r->tid = next->pid;
	r->tgid = next->tgid;
	r->cpu = bpf_get_smp_processor_id();
	r->pad = 0;
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), next->comm);
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(latency_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u64 queued, total, wait, nivcsw;
	struct f2t_latency_seen *s;

	if (!next->pid)
		return 0;	/* the idle task */
	queued = next->sched_info.last_queued;
	/*
	 * The run queue's clock, as the scheduler read it for this switch:
	 * through the thread's CFS run queue on this CPU (set for threads of
	 * every class), as the kernel's run queues are per-CPU variables that
	 * kallsyms lists only with CONFIG_KALLSYMS_ALL.
	 */
	total = next->sched_info.run_delay + (queued ? next->se.cfs_rq->rq->clock - queued : 0);
	nivcsw = next->nivcsw;
	s = bpf_task_storage_get(&seen, next, NULL, 0);
	if (!s) {
		struct f2t_latency_seen first = { .wanted = wanted(next->tgid) };

		if (first.wanted) {
			first.run_delay = total;
			first.nivcsw = nivcsw;
		}
		bpf_task_storage_get(&seen, next, &first, BPF_LOCAL_STORAGE_GET_F_CREATE);
		/* A new thread's first run: its whole wait since created. */
		if (first.wanted && !next->sched_info.pcount && total > threshold_ns)
			report(next, total);
		return 0;
	}
	if (!s->wanted)
		return 0;
	wait = total - s->run_delay;
	if (wait > threshold_ns && nivcsw == s->nivcsw)
		report(next, wait);
	s->run_delay = total;
	s->nivcsw = nivcsw;
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(latency_fork, struct task_struct *parent, struct task_struct *child)
{
	follow_fork(parent, child);
	return 0;
}
