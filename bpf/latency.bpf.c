// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flight recorder's latency trigger, in the kernel, with nothing at a
 * context switch.  A timer on each CPU (a cpu-clock perf event firing
 * every period the recorder chose) runs this program, which looks through
 * that CPU's run queue for a watched thread that has waited longer than
 * threshold_ns to run since its wakeup, and hands it to the recorder in
 * the ring buffer (the record wakes it at once).  Once that thread has
 * run, a second record gives its whole wait.
 *
 * Why a timer: a program at sched_switch costs every switch its call, even
 * one that returns at once, and a ping-pong switches a few hundred thousand
 * times a second: armed that way, the trigger cost more than a whole
 * recording.  A look at a run queue a few hundred times a second costs a
 * few microseconds each.  The price, said in the man page: a wait is seen
 * once it has lasted the threshold plus up to a period, and only the part
 * it waits on one CPU.
 *
 * The run queues are read without their lock (through bpf_rdonly_cast(),
 * whose loads cannot fault): another CPU may change them meanwhile, and a
 * look then misses a thread, which the next one finds; the walk is
 * bounded whatever it reads.
 *
 * The wait: the scheduler's delay accounting (CONFIG_SCHED_INFO) keeps in
 * sched_info.last_queued when the thread was queued to run, in its run
 * queue's clock, and in run_delay the sum of the waits it ended.
 *
 * Wakeup or preemption: a thread preempted (switched out still runnable)
 * is queued again at that switch, so last_queued is the run queue's clock
 * then and se.exec_start its task clock then, which is the clock less the
 * time the hypervisor stole: their difference is the clock's lead at that
 * moment.  A woken thread was queued after it slept, and the difference is
 * larger by the sleep.  The lead only grows; the lead this CPU saw at its
 * first look after last_queued bounds it, and a difference no larger is a
 * preemption, which is not reported.  A migration clears exec_start: such
 * a thread counts as woken.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record/latency_rec.h"
#include "targets.bpf.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the recorder before loading. */
const volatile __u64 threshold_ns = 10000000;

extern void *bpf_rdonly_cast(void *obj, __u32 btf_id) __ksym;
extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

#define HISTORY	32	/* looks remembered per CPU, for the clock's lead */
#define STACK	64	/* run queues and tree nodes still to look at */
#define BUDGET	512	/* steps of one look: a run queue longer is looked at in part */
#define MAX_RT_PRIO 100

enum { K_CFS, K_NODE, K_RTQ, K_RTENT };

struct item {
	__u64 kind;		/* K_*, and for K_RTQ the priority to go on from << 8 */
	__u64 addr;		/* cfs_rq, rb_node, rt_rq, or an entity's run_list */
	__u64 head;		/* K_RTENT: the priority's list head */
};

struct lead {
	__u64 clock;		/* the run queue's clock at a look */
	__u64 lead;		/* clock - clock_task then */
};

/* One CPU's scratch space and memory of its looks. */
struct scan {
	struct lead hist[HISTORY];
	__u64 behind;		/* the run queue's clock's least lag lately (least_behind) */
	__u32 next;		/* slot of hist written next */
	__u32 sp;
	struct item stack[STACK];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scan);
} scans SEC(".maps");

/* Waits reported and not yet ended, by thread. */
struct pending {
	__u64 run_delay;	/* sched_info.run_delay then (without this wait) */
	__u64 pcount;		/* runs then */
	__u64 max_delay;	/* sched_info.max_run_delay then (Linux 6.15), or 0 */
	__u32 tgid, cpu;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct pending);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} hits SEC(".maps");

__u32 npending;		/* entries of pending: the ended waits are looked for only then */

struct look {
	struct scan *s;
	__u64 clock;		/* the run queue's clock now, estimated */
	__u64 lead;		/* clock - clock_task at its last move */
	__u32 cpu;
};

static __always_inline void push(struct scan *s, __u64 kind, __u64 addr, __u64 head)
{
	__u32 sp = s->sp;

	if (sp >= STACK)
		return;		/* a run queue that deep is looked at in part */
	s->stack[sp].kind = kind;
	s->stack[sp].addr = addr;
	s->stack[sp].head = head;
	s->sp = sp + 1;
}

static __always_inline void report(__u32 kind, __u64 wait, __u32 tid, __u32 tgid, __u32 cpu,
				   const char *comm)
{
	struct f2t_latency_rec *r = bpf_ringbuf_reserve(&hits, sizeof(*r), 0);

	if (!r)
		return;
	r->wait_ns = wait;
	r->at_ns = bpf_ktime_get_ns();
	r->tid = tid;
	r->tgid = tgid;
	r->cpu = cpu;
	r->kind = kind;
	__builtin_memcpy(r->comm, comm, sizeof(r->comm));
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
}

/* The clock's lead when this CPU first looked at or after @queued. */
static __always_inline __u64 lead_at(const struct look *c, __u64 queued)
{
	__u64 best_clock = ~0ULL, lead = c->lead;

	for (int i = 0; i < HISTORY; i++) {
		const struct lead *e = &c->s->hist[i];

		if (e->clock >= queued && e->clock < best_clock) {
			best_clock = e->clock;
			lead = e->lead;
		}
	}
	return lead;
}

/*
 * How far the run queue's clock lags the trace's clock (bpf_ktime_get_ns)
 * at its freshest.  The run queue's clock moves only when the scheduler
 * runs on the CPU, at least at each tick: read bare, it is up to a tick
 * old on a CPU a spinner holds.  Both clocks tick at one rate but for the
 * slew NTP gives the trace's (0.05% at most), so the least lag seen, let
 * grow by DRIFT a look to follow that slew, taken from the trace's clock
 * now, gives the run queue's clock now.
 */
#define DRIFT 1000	/* ns a look: 0.1% at a look every millisecond */

static __always_inline __u64 least_behind(struct scan *s, __u64 behind)
{
	if (s->behind && s->behind + DRIFT < behind)
		behind = s->behind + DRIFT;
	s->behind = behind;
	return behind;
}

/* A task queued on this CPU: reported when it is a wakeup's long wait. */
static __always_inline void check_task(const struct look *c, __u64 addr)
{
	struct task_struct *t = bpf_rdonly_cast((void *)addr, bpf_core_type_id_kernel(struct task_struct));
	__u64 queued, exec_start, wait;
	struct pending *p, v = {};
	__u32 tid;

	if (t->on_cpu)
		return;		/* running: an RT queue holds its current task */
	queued = t->sched_info.last_queued;
	if (!queued || c->clock <= queued)
		return;
	wait = c->clock - queued;
	tid = t->pid;
	if (wait <= threshold_ns || !tid || !wanted(t->tgid))
		return;
	p = bpf_map_lookup_elem(&pending, &tid);
	if (p)
		return;		/* this wait, reported; or an earlier one not yet seen ended */
	exec_start = t->se.exec_start;
	if (exec_start && exec_start < queued && queued - exec_start <= lead_at(c, queued))
		return;		/* preempted */
	v.run_delay = t->sched_info.run_delay;
	v.pcount = t->sched_info.pcount;
	if (bpf_core_field_exists(t->sched_info.max_run_delay))
		v.max_delay = t->sched_info.max_run_delay;
	v.tgid = t->tgid;
	v.cpu = c->cpu;
	bpf_probe_read_kernel_str(v.comm, sizeof(v.comm), t->comm);
	if (bpf_map_update_elem(&pending, &tid, &v, BPF_NOEXIST))
		return;		/* full, or another CPU was first */
	__sync_fetch_and_add(&npending, 1);
	report(F2T_LATENCY_WAITING, wait, tid, v.tgid, v.cpu, v.comm);
}

static __always_inline void look_cfs(struct scan *s, __u64 addr)
{
	struct cfs_rq *cfs = bpf_rdonly_cast((void *)addr, bpf_core_type_id_kernel(struct cfs_rq));
	struct sched_entity *curr = cfs->curr;
	__u64 root = (__u64)cfs->tasks_timeline.rb_root.rb_node;

	if (root)
		push(s, K_NODE, root, 0);
	/* The running entity is out of the tree; a group's holds waiting ones. */
	if (curr && curr->my_q)
		push(s, K_CFS, (__u64)curr->my_q, 0);
}

static __always_inline void look_node(const struct look *c, __u64 addr)
{
	struct rb_node *n = bpf_rdonly_cast((void *)addr, bpf_core_type_id_kernel(struct rb_node));
	__u64 se_addr = addr - bpf_core_field_offset(struct sched_entity, run_node);
	struct sched_entity *se;

	if (n->rb_left)
		push(c->s, K_NODE, (__u64)n->rb_left, 0);
	if (n->rb_right)
		push(c->s, K_NODE, (__u64)n->rb_right, 0);
	se = bpf_rdonly_cast((void *)se_addr, bpf_core_type_id_kernel(struct sched_entity));
	if (se->my_q)
		push(c->s, K_CFS, (__u64)se->my_q, 0);
	else if (!se->sched_delayed)	/* a delayed one is asleep */
		check_task(c, se_addr - bpf_core_field_offset(struct task_struct, se));
}

/* The lowest set bit of @x, not 0 (clang's builtin has no BPF lowering). */
static __always_inline __u32 ctz64(__u64 x)
{
	__u32 n = 0;

	for (int half = 32; half; half >>= 1)
		if (!(x & ((1ULL << half) - 1))) {
			n += half;
			x >>= half;
		}
	return n;
}

/* The first queued priority of an RT run queue from @prio on. */
static __always_inline void look_rtq(struct scan *s, __u64 addr, __u32 prio)
{
	struct rt_rq *rt = bpf_rdonly_cast((void *)addr, bpf_core_type_id_kernel(struct rt_rq));
	__u64 bits, head, first;
	struct list_head *queue;
	__u32 w = prio >> 6;

	if (w > 1)
		return;
	/* Constant indices: a variable offset into a kernel struct is refused. */
	bits = (w ? rt->active.bitmap[1] : rt->active.bitmap[0]) & (~0ULL << (prio & 63));
	if (!bits) {
		push(s, K_RTQ | (__u64)((w + 1) << 6) << 8, addr, 0);
		return;
	}
	prio = (w << 6) + ctz64(bits);
	if (prio >= MAX_RT_PRIO)
		return;		/* the bitmap's delimiter */
	push(s, K_RTQ | (__u64)(prio + 1) << 8, addr, 0);
	head = addr + bpf_core_field_offset(struct rt_rq, active) +
	       bpf_core_field_offset(struct rt_prio_array, queue) + prio * sizeof(struct list_head);
	queue = bpf_rdonly_cast((void *)head, bpf_core_type_id_kernel(struct list_head));
	first = (__u64)queue->next;
	if (first != head)
		push(s, K_RTENT, first, head);
}

static __always_inline void look_rtent(const struct look *c, __u64 addr, __u64 head)
{
	struct list_head *l = bpf_rdonly_cast((void *)addr, bpf_core_type_id_kernel(struct list_head));
	__u64 ent = addr - bpf_core_field_offset(struct sched_rt_entity, run_list);
	struct sched_rt_entity *rt_se;

	if ((__u64)l->next != head)
		push(c->s, K_RTENT, (__u64)l->next, head);
	rt_se = bpf_rdonly_cast((void *)ent, bpf_core_type_id_kernel(struct sched_rt_entity));
	if (rt_se->my_q)
		push(c->s, K_RTQ, (__u64)rt_se->my_q, 0);
	else
		check_task(c, ent - bpf_core_field_offset(struct task_struct, rt));
}

static long step(__u32 i, void *ctx)
{
	struct look *c = ctx;
	struct scan *s = c->s;
	__u32 sp = s->sp;
	struct item it;

	if (!sp)
		return 1;
	sp--;
	if (sp >= STACK)
		return 1;
	it = s->stack[sp];
	s->sp = sp;
	switch (it.kind & 0xff) {
	case K_CFS:
		look_cfs(s, it.addr);
		break;
	case K_NODE:
		look_node(c, it.addr);
		break;
	case K_RTQ:
		look_rtq(s, it.addr, (__u32)(it.kind >> 8));
		break;
	case K_RTENT:
		look_rtent(c, it.addr, it.head);
		break;
	}
	return 0;
}

/*
 * A reported wait that has ended (the thread ran): its whole length.  When
 * the thread ran once since, run_delay grew by it alone.  When it ran more
 * often between two looks (a thread that makes up for lost periods), the
 * kernel's longest wait of the thread, if it grew, is this one (it had
 * crossed the threshold); else run_delay's growth bounds it from above.
 */
static long ended(struct bpf_map *map, __u32 *tid, struct pending *p, void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(*tid);
	__u64 pcount = 0, run_delay = 0, max_delay = 0, wait;
	__u32 kind = F2T_LATENCY_ENDED;

	if (t) {
		pcount = t->sched_info.pcount;
		run_delay = t->sched_info.run_delay;
		if (bpf_core_field_exists(t->sched_info.max_run_delay))
			max_delay = t->sched_info.max_run_delay;
		bpf_task_release(t);
		if (pcount == p->pcount)
			return 0;	/* still waiting */
	}
	if (bpf_map_delete_elem(map, tid))
		return 0;		/* another CPU took it */
	__sync_fetch_and_add(&npending, -1);
	wait = run_delay - p->run_delay;
	if (!t)
		kind = F2T_LATENCY_GONE;
	else if (pcount != p->pcount + 1 && max_delay > p->max_delay && max_delay <= wait)
		wait = max_delay;
	else if (pcount != p->pcount + 1)
		kind = F2T_LATENCY_AT_MOST;
	report(kind, wait, *tid, p->tgid, p->cpu, p->comm);
	return 0;
}

SEC("perf_event")
int latency_scan(void *ctx)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct rq *rq = cur->se.cfs_rq->rq;
	struct look c = { .cpu = bpf_get_smp_processor_id() };
	__u64 now, clock;
	__u32 zero = 0, slot;

	c.s = bpf_map_lookup_elem(&scans, &zero);
	if (!c.s || !rq)
		return 0;
	now = bpf_ktime_get_ns();
	clock = rq->clock;
	c.lead = clock - rq->clock_task;
	slot = c.s->next;
	if (slot < HISTORY && c.s->hist[(slot + HISTORY - 1) % HISTORY].clock != clock) {
		c.s->hist[slot].clock = clock;
		c.s->hist[slot].lead = c.lead;
		c.s->next = (slot + 1) % HISTORY;
	}
	c.clock = now - least_behind(c.s, now - clock);
	if (c.clock < clock)
		c.clock = clock;
	c.s->sp = 0;
	push(c.s, K_CFS, (__u64)rq + bpf_core_field_offset(struct rq, cfs), 0);
	push(c.s, K_RTQ, (__u64)rq + bpf_core_field_offset(struct rq, rt), 0);
	bpf_loop(BUDGET, step, &c, 0);
	if (npending)
		bpf_for_each_map_elem(&pending, ended, &c, 0);
	return 0;	/* no sample: the event has no ring */
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(latency_fork, struct task_struct *parent, struct task_struct *child)
{
	follow_fork(parent, child);
	return 0;
}
