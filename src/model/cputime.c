// SPDX-License-Identifier: MIT
/* CPU time per thread from sched_switch; see cputime.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/cputime.h"
#include "model/stats.h"
#include "util/vec.h"

struct oncpu {
	const struct f2t_task *task;	/* NULL: idle, or unknown */
	uint64_t since;
};

struct f2t_cputime {
	const struct f2t_tasks *tasks;
	uint64_t *ns;		/* by task seq, n of them (n == cap); past n: 0 */
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

/* Room for the sum of task SEQ: the array grown, all of it zeroed. */
static int grow(struct f2t_cputime *c, uint32_t seq)
{
	if (f2t_vec_reserve(&c->ns, &c->cap, (size_t)seq + 1, 256))
		return -ENOMEM;
	memset(c->ns + c->n, 0, (c->cap - c->n) * sizeof(*c->ns));
	c->n = c->cap;
	return 0;
}

int f2t_cputime_event(struct f2t_cputime *c, const struct f2t_event *ev)
{
	struct oncpu *on;
	int ret = 0;

	if (ev->cpu >= F2T_MAX_CPUS)
		return 0;
	on = &c->cpu[ev->cpu];
	if (ev->kind == F2T_EV_LOST) {
		on->task = NULL;
		return 0;
	}
	if (ev->kind != F2T_EV_SWITCH)
		return 0;
	/* Only what we saw start: the time before a CPU's first switch is unknown. */
	if (on->task && on->task->tid == ev->sw.prev_pid && ev->ts > on->since &&
	    !(ret = on->task->seq < c->n ? 0 : grow(c, on->task->seq)))
		c->ns[on->task->seq] += ev->ts - on->since;
	on->task = ev->sw.next_pid > 0 ? f2t_tasks_find(c->tasks, ev->sw.next_pid) : NULL;
	on->since = ev->ts;
	return ret;
}

uint64_t f2t_cputime_of(const struct f2t_cputime *c, const struct f2t_task *task)
{
	return task->seq < c->n ? c->ns[task->seq] : 0;
}
