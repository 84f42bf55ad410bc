// SPDX-License-Identifier: MIT
/* CPU time per thread from sched_switch; see cputime.h. */
#include <errno.h>
#include <stdlib.h>

#include "model/stats.h"
#include "model/cputime.h"

struct slot {
	int32_t tid;		/* 0: empty (pid 0 is never stored) */
	uint64_t ns;
};

struct oncpu {
	int32_t tid;		/* -1: unknown */
	uint64_t since;
};

struct f2t_cputime {
	struct slot *slots;	/* open addressing, linear probing */
	uint32_t mask, used;
	struct oncpu cpu[F2T_MAX_CPUS];
};

static inline uint32_t hash(int32_t tid)
{
	return (uint32_t)tid * 2654435761u;
}

struct f2t_cputime *f2t_cputime_new(void)
{
	struct f2t_cputime *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->mask = 1023;
	c->slots = calloc(c->mask + 1, sizeof(*c->slots));
	if (!c->slots) {
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
	free(c->slots);
	free(c);
}

static struct slot *lookup(struct slot *slots, uint32_t mask, int32_t tid)
{
	for (uint32_t i = hash(tid) & mask;; i = (i + 1) & mask)
		if (slots[i].tid == tid || slots[i].tid == 0)
			return &slots[i];
}

static int grow(struct f2t_cputime *c)
{
	uint32_t mask = c->mask * 2 + 1;
	struct slot *slots = calloc((size_t)mask + 1, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (uint32_t i = 0; i <= c->mask; i++)
		if (c->slots[i].tid)
			*lookup(slots, mask, c->slots[i].tid) = c->slots[i];
	free(c->slots);
	c->slots = slots;
	c->mask = mask;
	return 0;
}

static int add(struct f2t_cputime *c, int32_t tid, uint64_t ns)
{
	struct slot *s;

	if (tid <= 0)
		return 0;
	s = lookup(c->slots, c->mask, tid);
	if (!s->tid) {
		/* Keep the table at most half full so probes stay short. */
		if ((c->used + 1) * 2 > c->mask + 1) {
			if (grow(c))
				return -ENOMEM;
			s = lookup(c->slots, c->mask, tid);
		}
		s->tid = tid;
		c->used++;
	}
	s->ns += ns;
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
	const struct slot *s;

	if (tid <= 0)
		return 0;
	s = lookup(c->slots, c->mask, tid);
	return s->tid ? s->ns : 0;
}
