// SPDX-License-Identifier: MIT
/* Thread states over time; see thread_states.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/stats.h"
#include "model/thread_states.h"
#include "util/idmap.h"
#include "util/vec.h"

/* States a thread has before its life in the trace begins. */
enum {
	ST_NONE = F2T_TS_COUNT,	/* met, nothing known yet: existed before the trace */
	ST_NEW,			/* forked, not yet woken for the first time */
};

struct thread {
	uint64_t since;		/* start of the current stretch */
	uint8_t state;		/* enum f2t_tstate, ST_NONE, ST_NEW */
	uint8_t why;		/* UNKNOWN: enum f2t_tstate_why */
	bool migrated;		/* RUNNING: started on another CPU than the last run */
	bool new_task;		/* WOKEN: by sched_wakeup_new */
	bool wake_pending;	/* RUNNING: woken already; runnable once switched out */
	uint32_t cpu;		/* RUNNING: where */
	int32_t last_cpu;	/* where it last ran; -1: nowhere yet */
	int32_t waker;		/* WOKEN, or wake_pending: who */
	uint32_t waker_cpu;
};

/* One change of the task on a CPU: @tid from @start (-1: unknown). */
struct hold {
	int32_t tid;
	uint64_t start;
};

struct cpu {
	bool known;		/* cur is the task on this CPU */
	bool lost;		/* not known because events were lost here */
	int32_t cur;
	size_t cur_idx;		/* cur > 0: its entry in threads, saving a lookup */
	uint64_t since;		/* when cur was put there (or found there) */
	uint64_t last;		/* the time of this CPU's last event */
	/*
	 * Who this CPU's own records last said runs here (a switch's next
	 * task, an event's task), kept when cur is forgotten because that task
	 * turned up on another CPU: another task's event here is then still a
	 * switch the kernel did not record, as the tracker counts it
	 * (model/tracker.c).  Forgotten after a loss only.
	 */
	bool named;
	int32_t named_pid;
	struct hold ring[F2T_TS_HISTORY];
	uint64_t nholds;	/* holds ever pushed; the ring keeps the latest */
};

struct f2t_tstates {
	struct f2t_idmap threads;	/* tid -> struct thread + the consumer's bytes */
	size_t user_off;
	f2t_tstate_fn fn;
	void *ctx;
	bool started;
	uint64_t first, last;
	/* Any wait that began before this may hide events lost on some CPU. */
	uint64_t loss_end;
	struct f2t_tstates_counts counts;
	uint32_t ncpus;			/* past the highest CPU an event came from */
	/*
	 * By CPU number, grown as events come from higher ones: a table of
	 * every CPU this tool handles (1024) is 300 KB, allocated and cleared
	 * for a trace of two.
	 */
	struct cpu *cpus;
	size_t cpus_cap;
};

struct f2t_tstates *f2t_tstates_new(size_t user_size, f2t_tstate_fn fn, void *ctx)
{
	struct f2t_tstates *t = calloc(1, sizeof(*t));
	size_t off = (sizeof(struct thread) + 15) & ~(size_t)15;

	if (!t || f2t_idmap_init(&t->threads, off + ((user_size + 15) & ~(size_t)15))) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->user_off = off;
	t->fn = fn;
	t->ctx = ctx;
	return t;
}

void f2t_tstates_free(struct f2t_tstates *t)
{
	if (!t)
		return;
	f2t_idmap_fini(&t->threads);
	free(t->cpus);
	free(t);
}

uint64_t f2t_tstates_first(const struct f2t_tstates *t)
{
	return t->first;
}

uint64_t f2t_tstates_last(const struct f2t_tstates *t)
{
	return t->last;
}

const struct f2t_tstates_counts *f2t_tstates_counts(const struct f2t_tstates *t)
{
	return &t->counts;
}

enum f2t_tstate f2t_tstates_parse_state(const char *s)
{
	switch (s[0]) {
	case 'R':
		return F2T_TS_PREEMPTED;
	case 'S':
		return F2T_TS_SLEEPING;
	case 'D':
		return F2T_TS_BLOCKED;
	case 'I':
		return F2T_TS_IDLE;
	case 'T':
	case 't':
	case 'P':
		return F2T_TS_STOPPED;
	case 'X':
	case 'x':
	case 'Z':
		return F2T_TS_DEAD;
	default:
		return F2T_TS_UNKNOWN;
	}
}

const char *f2t_tstate_name(enum f2t_tstate s)
{
	static const char *const names[F2T_TS_COUNT] = {
		"unknown", "running", "runnable_woken", "runnable_preempted", "sleeping",
		"blocked", "idle", "stopped", "dead",
	};

	return (unsigned int)s < F2T_TS_COUNT ? names[s] : "end";
}

const char *f2t_tstate_why_name(enum f2t_tstate_why w)
{
	static const char *const names[F2T_TSW_COUNT] = {
		"", "before_first_event", "gap", "lost", "unseen",
	};

	return (unsigned int)w < F2T_TSW_COUNT ? names[w] : "";
}

static struct thread *thread_get(struct f2t_tstates *t, int32_t tid)
{
	bool fresh;
	struct thread *th = f2t_idmap_get(&t->threads, tid, &fresh);

	if (th && fresh) {
		th->state = ST_NONE;
		th->last_cpu = -1;
		th->waker = -1;
		th->cpu = th->waker_cpu = F2T_TS_NO_CPU;
	}
	return th;
}

/* The entry of the task on @c, which runs a thread (cur > 0). */
static struct thread *cur_thread(struct f2t_tstates *t, const struct cpu *c)
{
	return f2t_idmap_at(&t->threads, c->cur_idx, NULL);
}

static size_t index_of(const struct f2t_tstates *t, const struct thread *th)
{
	return (size_t)((const unsigned char *)th - t->threads.e) / t->threads.esize;
}

static void *user_of(const struct f2t_tstates *t, struct thread *th)
{
	return (unsigned char *)th + t->user_off;
}

/*
 * Ends @th's current stretch at @end, followed by @next.  @switched: by a
 * sched_switch on @cpu (away from a running thread, or to a waiting one).
 * @unknown: what the trace cannot tell about this stretch (F2T_TSW_NONE:
 * it tells): the stretch is then reported UNKNOWN, for that reason.
 */
static int end_stretch(struct f2t_tstates *t, int32_t tid, struct thread *th, uint64_t end,
		       enum f2t_tstate next, bool switched, uint32_t cpu,
		       enum f2t_tstate_why unknown)
{
	struct f2t_tstate_span s = {
		.tid = tid, .state = th->state, .why = th->why, .start = th->since,
		.end = end, .cpu = F2T_TS_NO_CPU, .next = next, .waker = -1,
		.waker_cpu = F2T_TS_NO_CPU, .user = user_of(t, th),
	};

	if (th->state == ST_NEW || th->state == F2T_TS_DEAD)
		return 0;	/* not alive: no time to account for */
	if (th->state == ST_NONE) {
		s.state = F2T_TS_UNKNOWN;
		s.why = F2T_TSW_BEFORE;
		s.start = t->first;
	} else if (s.state != F2T_TS_UNKNOWN && s.state != F2T_TS_RUNNING &&
		   s.start < t->loss_end) {
		/* Lost events on any CPU may have run, or woken, this thread. */
		s.state = F2T_TS_UNKNOWN;
		s.why = F2T_TSW_LOST;
	} else if (unknown != F2T_TSW_NONE && s.state != F2T_TS_UNKNOWN) {
		s.state = F2T_TS_UNKNOWN;
		s.why = unknown;
	}
	switch (s.state) {
	case F2T_TS_RUNNING:
		s.cpu = th->cpu;
		s.switched = switched;
		s.migrated = th->migrated;
		break;
	case F2T_TS_WOKEN:
		s.waker = th->waker;
		s.waker_cpu = th->waker_cpu;
		s.new_task = th->new_task;
		/* fallthrough */
	case F2T_TS_PREEMPTED:
		if (switched) {
			s.cpu = cpu;
			s.switched = true;
		}
		break;
	default:
		break;
	}
	if (s.end < s.start)
		s.end = s.start;
	return t->fn(t->ctx, &s);
}

static void push_hold(struct cpu *c, int32_t tid, uint64_t start)
{
	c->ring[c->nholds % F2T_TS_HISTORY] = (struct hold){ tid, start };
	c->nholds++;
}

static int idle_span(struct f2t_tstates *t, uint32_t cpu, uint64_t end, enum f2t_tstate next,
		     bool switched)
{
	struct f2t_tstate_span s = {
		.tid = 0, .state = F2T_TS_RUNNING, .start = t->cpus[cpu].since,
		.end = end, .cpu = cpu, .next = next, .switched = switched, .waker = -1,
		.waker_cpu = F2T_TS_NO_CPU,
	};

	if (s.end < s.start)
		s.end = s.start;
	return t->fn(t->ctx, &s);
}

/*
 * What CPU @cpu ran is no longer known from its last event on: its task ran
 * until then, and is in an unknown state (for reason @why) from there.
 */
static int forget_cpu(struct f2t_tstates *t, uint32_t cpu, enum f2t_tstate_why why)
{
	struct cpu *c = &t->cpus[cpu];
	struct thread *th;
	int ret = 0;

	if (!c->known)
		return 0;
	c->known = false;
	push_hold(c, -1, c->last);
	if (c->cur == 0)
		return idle_span(t, cpu, c->last, F2T_TS_UNKNOWN, false);
	th = cur_thread(t, c);
	if (th->state != F2T_TS_RUNNING || th->cpu != cpu)
		return 0;
	ret = end_stretch(t, c->cur, th, c->last, F2T_TS_UNKNOWN, false, cpu, F2T_TSW_NONE);
	th->state = F2T_TS_UNKNOWN;
	th->why = why;
	th->since = c->last;
	th->wake_pending = false;
	return ret;
}

/* @th starts running on @cpu at @ts. */
static void run(struct thread *th, uint32_t cpu, uint64_t ts)
{
	th->migrated = th->last_cpu >= 0 && (uint32_t)th->last_cpu != cpu;
	th->last_cpu = (int32_t)cpu;
	th->state = F2T_TS_RUNNING;
	th->since = ts;
	th->cpu = cpu;
	th->why = F2T_TSW_NONE;
	th->wake_pending = false;
}

/*
 * A thread in RUNNING on another CPU than @cpu, where it now runs: that
 * CPU's switch away from it was not recorded.
 */
static int running_elsewhere(struct f2t_tstates *t, struct thread *th, uint32_t cpu)
{
	if (th->state != F2T_TS_RUNNING || th->cpu == cpu)
		return 0;
	return forget_cpu(t, th->cpu, F2T_TSW_GAP);
}

/*
 * Task @pid ran an event on @cpu at @ts, though the last switch there put
 * another task on it, or nothing is known of it: from now on @pid runs
 * there; how it came to run is unknown.
 */
static int found_running(struct f2t_tstates *t, uint32_t cpu, int32_t pid, uint64_t ts)
{
	struct cpu *c = &t->cpus[cpu];
	enum f2t_tstate_why why = c->lost ? F2T_TSW_LOST : F2T_TSW_GAP;
	bool known = c->known;
	uint64_t last = c->last;
	struct thread *th;
	int ret;

	if (c->named && c->named_pid != pid)
		t->counts.gaps++;
	ret = forget_cpu(t, cpu, F2T_TSW_GAP);
	c->known = true;
	c->lost = false;
	c->cur = pid;
	c->since = ts;
	push_hold(c, pid, ts);
	if (ret || pid == 0)
		return ret;
	th = thread_get(t, pid);
	if (!th)
		return -ENOMEM;
	c->cur_idx = index_of(t, th);
	ret = running_elsewhere(t, th, cpu);
	/*
	 * A runnable thread was still waiting at this CPU's last event, which
	 * another task ran: only what follows is unknown.
	 */
	if (!ret && known && (th->state == F2T_TS_WOKEN || th->state == F2T_TS_PREEMPTED) &&
	    last > th->since) {
		ret = end_stretch(t, pid, th, last, F2T_TS_UNKNOWN, false, cpu, F2T_TSW_NONE);
		th->state = F2T_TS_UNKNOWN;
		th->why = why;
		th->since = last;
	}
	if (!ret)
		ret = end_stretch(t, pid, th, ts, F2T_TS_RUNNING, false, cpu, why);
	run(th, cpu, ts);
	return ret;
}

static int lost(struct f2t_tstates *t, const struct f2t_event *ev)
{
	struct cpu *c = &t->cpus[ev->cpu];

	t->counts.lost_notes++;
	t->counts.lost_events += ev->lost.count;
	if (ev->ts > t->loss_end)
		t->loss_end = ev->ts;
	c->lost = true;
	c->named = false;
	return forget_cpu(t, ev->cpu, F2T_TSW_LOST);
}

static int switch_out(struct f2t_tstates *t, const struct f2t_event *ev)
{
	enum f2t_tstate st = f2t_tstates_parse_state(ev->sw.prev_state);
	int32_t tid = ev->sw.prev_pid;
	struct thread *th;
	int ret;

	if (tid == 0)
		return idle_span(t, ev->cpu, ev->ts, st, true);
	/* The event's task runs there (f2t_tstates_event() made sure). */
	th = cur_thread(t, &t->cpus[ev->cpu]);
	if (st == F2T_TS_UNKNOWN)
		t->counts.unknown_letters++;
	else if (th->wake_pending && st >= F2T_TS_SLEEPING && st <= F2T_TS_STOPPED)
		st = F2T_TS_WOKEN;	/* woken on its way to sleep: runnable once off the CPU */
	ret = end_stretch(t, tid, th, ev->ts, st, true, ev->cpu, F2T_TSW_NONE);
	th->since = ev->ts;
	th->state = st;
	th->why = st == F2T_TS_UNKNOWN ? F2T_TSW_UNSEEN : F2T_TSW_NONE;
	th->new_task = false;
	th->wake_pending = false;
	return ret;
}

static int switch_in(struct f2t_tstates *t, const struct f2t_event *ev)
{
	int32_t tid = ev->sw.next_pid;
	struct thread *th;
	int ret = 0;

	if (tid == 0)
		return 0;
	th = thread_get(t, tid);
	if (!th)
		return -ENOMEM;
	t->cpus[ev->cpu].cur_idx = index_of(t, th);
	ret = running_elsewhere(t, th, ev->cpu);
	switch (th->state) {
	case F2T_TS_WOKEN:
	case F2T_TS_PREEMPTED:
	case ST_NONE:
		if (!ret)
			ret = end_stretch(t, tid, th, ev->ts, F2T_TS_RUNNING, true, ev->cpu,
					  F2T_TSW_NONE);
		break;
	case ST_NEW:
	case F2T_TS_DEAD:
		break;		/* its life starts now */
	default:
		/* Sleeping, blocked...: the wakeup was not recorded. */
		if (!ret)
			ret = end_stretch(t, tid, th, ev->ts, F2T_TS_RUNNING, false, ev->cpu,
					  F2T_TSW_UNSEEN);
		break;
	}
	run(th, ev->cpu, ev->ts);
	return ret;
}

static int on_switch(struct f2t_tstates *t, const struct f2t_event *ev)
{
	struct cpu *c = &t->cpus[ev->cpu];
	int ret = switch_out(t, ev);

	if (!ret)
		ret = switch_in(t, ev);
	c->cur = ev->sw.next_pid;
	c->named_pid = ev->sw.next_pid;
	c->since = ev->ts;
	push_hold(c, ev->sw.next_pid, ev->ts);
	return ret;
}

static int on_wakeup(struct f2t_tstates *t, const struct f2t_event *ev)
{
	int32_t tid = ev->wake.pid;
	bool new_task = ev->kind == F2T_EV_WAKEUP_NEW;
	struct thread *th;
	int ret = 0;

	if (tid <= 0)
		return 0;
	th = thread_get(t, tid);
	if (!th)
		return -ENOMEM;
	switch (th->state) {
	case F2T_TS_RUNNING:
		if (!th->wake_pending) {
			t->counts.wakeups_while_running++;
			th->wake_pending = true;
			th->waker = ev->pid;
			th->waker_cpu = ev->cpu;
		}
		return 0;
	case F2T_TS_WOKEN:
	case F2T_TS_PREEMPTED:
		return 0;	/* already runnable */
	case ST_NONE:
	case ST_NEW:
	case F2T_TS_DEAD:
		/* A new task's life starts here; a waking of one met before
		 * its fork is ignored, it is not runnable yet. */
		if (!new_task && th->state != ST_NONE)
			return 0;
		if (th->state == ST_NONE && !new_task)
			ret = end_stretch(t, tid, th, ev->ts, F2T_TS_WOKEN, false, ev->cpu,
					  F2T_TSW_NONE);
		break;
	default:
		ret = end_stretch(t, tid, th, ev->ts, F2T_TS_WOKEN, false, ev->cpu, F2T_TSW_NONE);
		break;
	}
	th->state = F2T_TS_WOKEN;
	th->why = F2T_TSW_NONE;
	th->since = ev->ts;
	th->waker = ev->pid;
	th->waker_cpu = ev->cpu;
	th->new_task = new_task;
	return ret;
}

static int on_fork(struct f2t_tstates *t, const struct f2t_event *ev)
{
	struct thread *th = thread_get(t, ev->fork.child_pid);

	if (!th)
		return -ENOMEM;
	if (th->state == ST_NONE || th->state == F2T_TS_DEAD) {
		th->state = ST_NEW;
		th->last_cpu = -1;
	}
	return 0;
}

/* The task is gone: if its last switch was not seen, when it ended is not known. */
static int on_free(struct f2t_tstates *t, const struct f2t_event *ev)
{
	struct thread *th = f2t_idmap_find(&t->threads, ev->exit.pid);
	int ret;

	if (!th || th->state == F2T_TS_DEAD || th->state == ST_NEW || th->state == ST_NONE)
		return 0;
	if (th->state == F2T_TS_RUNNING)
		return 0;	/* a reused tid already running again */
	ret = end_stretch(t, ev->exit.pid, th, ev->ts, F2T_TS_DEAD, false, F2T_TS_NO_CPU,
			  F2T_TSW_UNSEEN);
	th->state = F2T_TS_DEAD;
	th->since = ev->ts;
	return ret;
}

int f2t_tstates_event(struct f2t_tstates *t, const struct f2t_event *ev)
{
	struct cpu *c;
	int32_t pid;
	int ret = 0;

	if (ev->kind == F2T_EV_SAMPLE || ev->kind == F2T_EV_OFFCPU || ev->cpu >= F2T_MAX_CPUS)
		return 0;	/* from other sources than the ring: not its switches' order */
	if (!t->started) {
		t->started = true;
		t->first = ev->ts;
	}
	if (ev->ts > t->last)
		t->last = ev->ts;
	if (ev->cpu >= t->ncpus) {
		if (f2t_vec_reserve(&t->cpus, &t->cpus_cap, (size_t)ev->cpu + 1, 8))
			return -ENOMEM;
		memset(t->cpus + t->ncpus, 0, (ev->cpu + 1 - t->ncpus) * sizeof(*t->cpus));
		t->ncpus = ev->cpu + 1;
	}
	if (ev->kind == F2T_EV_LOST)
		return lost(t, ev);
	c = &t->cpus[ev->cpu];
	pid = ev->kind == F2T_EV_SWITCH ? ev->sw.prev_pid : ev->pid;
	if (pid >= 0 && (!c->known || c->cur != pid))
		ret = found_running(t, ev->cpu, pid, ev->ts);
	c->last = ev->ts;
	if (pid >= 0) {
		c->named = true;
		c->named_pid = pid;
	}
	if (ret)
		return ret;
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		/*
		 * No kernel task has a negative pid: a damaged record, which
		 * says nothing of who ran (the check above passed it by, and
		 * switch_out() would take the CPU's task for the one named).
		 */
		if (ev->sw.prev_pid < 0 || ev->sw.next_pid < 0) {
			c->named = ev->sw.next_pid >= 0;
			c->named_pid = ev->sw.next_pid;
			return forget_cpu(t, ev->cpu, F2T_TSW_GAP);
		}
		return on_switch(t, ev);
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		return on_wakeup(t, ev);
	case F2T_EV_FORK:
		return on_fork(t, ev);
	case F2T_EV_FREE:
		return on_free(t, ev);
	default:
		return 0;
	}
}

int f2t_tstates_end(struct f2t_tstates *t)
{
	int ret = 0;

	/* Only CPUs events came from can be known. */
	for (uint32_t cpu = 0; !ret && cpu < t->ncpus; cpu++)
		if (t->cpus[cpu].known && t->cpus[cpu].cur == 0)
			ret = idle_span(t, cpu, t->last, F2T_TS_COUNT, false);
	for (size_t i = 0; !ret && i < t->threads.n; i++) {
		int64_t tid;
		struct thread *th = f2t_idmap_at(&t->threads, i, &tid);

		ret = end_stretch(t, (int32_t)tid, th, t->last, F2T_TS_COUNT, false,
				  F2T_TS_NO_CPU, F2T_TSW_NONE);
		th->since = t->last;
	}
	return ret;
}

int f2t_tstates_each(struct f2t_tstates *t, int (*fn)(void *ctx, int32_t tid, void *user),
		     void *ctx)
{
	for (size_t i = 0; i < t->threads.n; i++) {
		int64_t tid;
		struct thread *th = f2t_idmap_at(&t->threads, i, &tid);
		int ret = fn(ctx, (int32_t)tid, user_of(t, th));

		if (ret)
			return ret;
	}
	return 0;
}

size_t f2t_tstates_holders(const struct f2t_tstates *t, uint32_t cpu, uint64_t from,
			   uint64_t to, struct f2t_tstate_holder *out, size_t max,
			   bool *complete)
{
	struct f2t_tstate_holder tally[F2T_TS_HISTORY];
	const struct cpu *c;
	size_t n = 0, kept;
	uint64_t end = to;

	*complete = false;
	if (cpu >= t->ncpus)
		return 0;	/* no event from it: nothing held it */
	c = &t->cpus[cpu];
	kept = c->nholds < F2T_TS_HISTORY ? (size_t)c->nholds : F2T_TS_HISTORY;
	for (size_t i = 0; i < kept; i++) {
		const struct hold *h = &c->ring[(c->nholds - 1 - i) % F2T_TS_HISTORY];
		uint64_t start = h->start > from ? h->start : from;
		size_t k;

		if (end > start) {
			for (k = 0; k < n && tally[k].tid != h->tid; k++)
				;
			if (k == n)
				tally[n++] = (struct f2t_tstate_holder){ h->tid, 0 };
			tally[k].ns += end - start;
		}
		if (h->start <= from) {
			*complete = true;
			break;
		}
		end = h->start;
	}
	/* Longest first: a few entries, insertion sort. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && tally[j].ns > tally[j - 1].ns; j--) {
			struct f2t_tstate_holder tmp = tally[j];

			tally[j] = tally[j - 1];
			tally[j - 1] = tmp;
		}
	if (n > max)
		n = max;
	memcpy(out, tally, n * sizeof(*out));
	return n;
}
