// SPDX-License-Identifier: MIT
/* CPU time per thread from sched_switch; see cputime.h. */
#include <errno.h>
#include <stdlib.h>

#include "model/stats.h"
#include "model/cputime.h"
#include "util/idmap.h"

struct oncpu {
	int32_t tid;		/* -1: unknown */
	uint64_t since;
};

struct f2t_cputime {
	struct f2t_idmap ns;	/* tid -> uint64_t ns on a CPU */
	struct oncpu cpu[F2T_MAX_CPUS];
};

struct f2t_cputime *f2t_cputime_new(void)
{
	struct f2t_cputime *c = calloc(1, sizeof(*c));

	if (!c || f2t_idmap_init(&c->ns, sizeof(uint64_t))) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < F2T_MAX_CPUS; i++)
		c->cpu[i].tid = -1;
	return c;
}

void f2t_cputime_free(struct f2t_cputime *c)
{
	if (!c)
		return;
	f2t_idmap_fini(&c->ns);
	free(c);
}

static int add(struct f2t_cputime *c, int32_t tid, uint64_t ns)
{
	uint64_t *total;

	if (tid <= 0)
		return 0;
	total = f2t_idmap_get(&c->ns, tid, NULL);
	if (!total)
		return -ENOMEM;
	*total += ns;
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
		on->tid = -1;
		return 0;
	}
	if (ev->kind != F2T_EV_SWITCH)
		return 0;
	/* Only what we saw start: the time before a CPU's first switch is unknown. */
	if (on->tid == ev->sw.prev_pid && ev->ts > on->since)
		ret = add(c, on->tid, ev->ts - on->since);
	on->tid = ev->sw.next_pid;
	on->since = ev->ts;
	return ret;
}

uint64_t f2t_cputime_get(const struct f2t_cputime *c, int32_t tid)
{
	const uint64_t *total = tid > 0 ? f2t_idmap_find(&c->ns, tid) : NULL;

	return total ? *total : 0;
}
