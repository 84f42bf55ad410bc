// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/tracker.h"

struct f2t_tracker *f2t_tracker_new(struct f2t_tasks *tasks, const struct f2t_tasks *hints)
{
	struct f2t_tracker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->tasks = tasks;
	t->hints = hints;
	for (int i = 0; i < F2T_MAX_CPUS; i++)
		t->current[i] = -1;
	return t;
}

void f2t_tracker_free(struct f2t_tracker *t)
{
	free(t);
}

/*
 * A task seen for the first time (with EV), with what the hints know of it,
 * and the name EV's source knew for it (event.h's pid_comm).
 */
static struct f2t_task *new_task(struct f2t_tracker *t, int32_t tid, const struct f2t_event *ev)
{
	struct f2t_task *tk = f2t_tasks_add(t->tasks, tid);
	const struct f2t_task *hint;

	if (tk && t->hints && (hint = f2t_tasks_find(t->hints, tid)))
		f2t_task_set(tk, hint->comm, hint->tgid);
	if (tk && ev->pid_comm && tid == ev->pid)
		f2t_task_set(tk, ev->pid_comm, 0);
	return tk;
}

/* The task TID, created on first sight (of EV): inline, every event has two or three. */
static inline struct f2t_task *task(struct f2t_tracker *t, int32_t tid,
				    const struct f2t_event *ev)
{
	struct f2t_task *tk = f2t_tasks_find_mut(t->tasks, tid);

	return tk ? tk : new_task(t, tid, ev);
}

static inline int seen(struct f2t_tracker *t, const struct f2t_event *ev, int32_t tid,
		       const char *comm, int32_t prio)
{
	/* Made first when not known, then named as a known one is. */
	if (!f2t_tracker_saw(t, tid, comm, ev->comm_words, prio) &&
	    (!new_task(t, tid, ev) || !f2t_tracker_saw(t, tid, comm, ev->comm_words, prio)))
		return -ENOMEM;
	return 0;
}

/*
 * An event from task PID on CPU while the last switch there put another task
 * on it means a switch the kernel did not record.  Count each gap once.
 */
static void check_current(struct f2t_tracker *t, uint32_t cpu, int32_t pid,
			  struct f2t_stats *st)
{
	if (cpu >= F2T_MAX_CPUS || pid < 0)
		return;
	if (t->current[cpu] >= 0 && t->current[cpu] != pid)
		st->sched_gaps++;
	t->current[cpu] = pid;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int32_t f2t_tracker_sample_tid(struct f2t_tracker *t, const struct f2t_event *ev)
{
	const struct f2t_task *tk;
	int32_t cur;

	if (ev->cpu >= F2T_MAX_CPUS || (cur = t->current[ev->cpu]) <= 0)
		return 0;
	tk = f2t_tasks_find(t->tasks, cur);
	return tk && tk->tgid == ev->sample.tgid ? cur : 0;
}

int f2t_tracker_learn(struct f2t_tracker *t, const struct f2t_event *ev)
{
	return ev->pid > 0 && !task(t, ev->pid, ev) ? -ENOMEM : 0;
}

int f2t_tracker_event_slow(struct f2t_tracker *t, const struct f2t_event *ev,
			   struct f2t_stats *st)
{
	struct f2t_task *tk;
	int ret = 0;

	st->total_events++;
	if ((unsigned int)ev->kind < sizeof(st->events) / sizeof(st->events[0]))
		st->events[ev->kind]++;
	if (ev->kind == F2T_EV_LOST) {
		/* After a loss nothing is known about what ran. */
		if (ev->cpu < F2T_MAX_CPUS)
			t->current[ev->cpu] = -1;
		return 0;
	}
	if (ev->kind == F2T_EV_SAMPLE || ev->kind == F2T_EV_OFFCPU) {
		/* Another source: says nothing about the ring's switches, but knows the process. */
		int32_t tgid = ev->kind == F2T_EV_SAMPLE ? ev->sample.tgid : ev->offcpu.tgid;

		if (ev->pid > 0) {
			tk = task(t, ev->pid, ev);
			if (!tk)
				return -ENOMEM;
			if (tgid > 0 && tk->tgid != tgid)
				f2t_task_set(tk, NULL, tgid);
		}
		return 0;
	}
	check_current(t, ev->cpu, ev->pid, st);
	/* A switch's pid is its prev_pid's, made with its name below. */
	if (ev->pid > 0 && !(ev->kind == F2T_EV_SWITCH && ev->pid == ev->sw.prev_pid) &&
	    !task(t, ev->pid, ev))
		return -ENOMEM;

	switch (ev->kind) {
	case F2T_EV_SWITCH:
		ret = seen(t, ev, ev->sw.prev_pid, ev->sw.prev_comm, ev->sw.prev_prio);
		if (!ret)
			ret = seen(t, ev, ev->sw.next_pid, ev->sw.next_comm, ev->sw.next_prio);
		if (ev->cpu < F2T_MAX_CPUS)
			t->current[ev->cpu] = ev->sw.next_pid;
		break;
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		ret = seen(t, ev, ev->wake.pid, ev->wake.comm, ev->wake.prio);
		break;
	case F2T_EV_FORK: {
		const struct f2t_task *parent = task(t, ev->fork.parent_pid, ev);
		int32_t tgid = ev->fork.child_pid;

		if (!parent)
			return -ENOMEM;
		if (ev->fork.clone_thread == 1)
			tgid = parent->tgid;
		else if (ev->fork.clone_thread < 0 && t->hints) {
			const struct f2t_task *hint = f2t_tasks_find(t->hints, ev->fork.child_pid);

			if (hint)
				tgid = hint->tgid;
		}
		tk = task(t, ev->fork.child_pid, ev);
		if (!tk)
			return -ENOMEM;
		f2t_task_set(tk, ev->fork.child_comm, tgid);
		tk->prio = parent->prio;
		break;
	}
	case F2T_EV_EXEC:
		/* A non-leader thread that execs takes over the leader's pid. */
		tk = task(t, ev->exec.pid, ev);
		if (!tk)
			return -ENOMEM;
		{
			char comm[F2T_COMM_LEN];

			/* The kernel names the task after the file, cut to 15 bytes. */
			strncpy(comm, basename_of(ev->exec.filename), sizeof(comm) - 1);
			comm[sizeof(comm) - 1] = '\0';
			f2t_task_set(tk, comm, ev->exec.pid);
		}
		break;
	case F2T_EV_RENAME:
		ret = seen(t, ev, ev->rename.pid, ev->rename.newcomm, -1);
		break;
	case F2T_EV_EXIT:
	case F2T_EV_FREE:
		ret = seen(t, ev, ev->exit.pid, ev->exit.comm, -1);
		break;
	default:
		break;
	}
	return ret;
}
