// SPDX-License-Identifier: MIT
/* CPU time per thread from sched_switch; see cputime.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/cputime.h"
#include "model/stats.h"
#include "util/vec.h"

struct oncpu {
	int32_t tid;		/* 0: idle, or unknown */
	uint32_t seq;		/* its task's */
	uint64_t since;
};

struct f2t_cputime {
	const struct f2t_tasks *tasks;
	uint64_t *ns;		/* by task seq; past n: 0 */
	size_t n, cap;
	struct oncpu cpu[F2T_MAX_CPUS];
};

struct f2t_cputime *f2t_cputime_new(const struct f2t_tasks *tasks)
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
	if (c)
		free(c->ns);
	free(c);
}

/* Adds NS to the task SEQ's sum. */
static int add(struct f2t_cputime *c, uint32_t seq, uint64_t ns)
{
	if (seq >= c->n) {
		if (f2t_vec_reserve(&c->ns, &c->cap, (size_t)seq + 1, 256))
			return -ENOMEM;
		memset(c->ns + c->n, 0, ((size_t)seq + 1 - c->n) * sizeof(*c->ns));
		c->n = (size_t)seq + 1;
	}
	c->ns[seq] += ns;
	return 0;
}

int f2t_cputime_event(struct f2t_cputime *c, const struct f2t_event *ev)
{
	const struct f2t_task *next;
	struct oncpu *on;
	int ret = 0;

	if (ev->cpu >= F2T_MAX_CPUS)
		return 0;
	on = &c->cpu[ev->cpu];
	if (ev->kind == F2T_EV_LOST) {
		on->tid = 0;
		return 0;
	}
	if (ev->kind != F2T_EV_SWITCH)
		return 0;
	/* Only what we saw start: the time before a CPU's first switch is unknown. */
	if (on->tid && on->tid == ev->sw.prev_pid && ev->ts > on->since)
		ret = add(c, on->seq, ev->ts - on->since);
	next = ev->sw.next_pid > 0 ? f2t_tasks_find(c->tasks, ev->sw.next_pid) : NULL;
	*on = (struct oncpu){ next ? next->tid : 0, next ? next->seq : 0, ev->ts };
	return ret;
}

uint64_t f2t_cputime_of(const struct f2t_cputime *c, const struct f2t_task *task)
{
	return task->seq < c->n ? c->ns[task->seq] : 0;
}
