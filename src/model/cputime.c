// SPDX-License-Identifier: MIT
/* CPU time per thread from sched_switch; see cputime.h. */
#include <errno.h>
#include <stdlib.h>

#include "model/cputime.h"
#include "model/stats.h"

struct oncpu {
	struct f2t_task *task;	/* NULL: idle, or unknown */
	uint64_t since;
};

struct f2t_cputime {
	struct f2t_tasks *tasks;
	struct oncpu cpu[F2T_MAX_CPUS];
};

struct f2t_cputime *f2t_cputime_new(struct f2t_tasks *tasks)
{
	struct f2t_cputime *c = calloc(1, sizeof(*c));

	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->tasks = tasks;
	return c;
}

void f2t_cputime_free(struct f2t_cputime *c)
{
	free(c);
}

void f2t_cputime_event(struct f2t_cputime *c, const struct f2t_event *ev)
{
	struct oncpu *on;

	if (ev->cpu >= F2T_MAX_CPUS)
		return;
	on = &c->cpu[ev->cpu];
	if (ev->kind == F2T_EV_LOST) {
		on->task = NULL;
		return;
	}
	if (ev->kind != F2T_EV_SWITCH)
		return;
	/* Only what we saw start: the time before a CPU's first switch is unknown. */
	if (on->task && on->task->tid == ev->sw.prev_pid && ev->ts > on->since)
		on->task->cpu_ns += ev->ts - on->since;
	on->task = ev->sw.next_pid > 0 ? f2t_tasks_find(c->tasks, ev->sw.next_pid) : NULL;
	on->since = ev->ts;
}
