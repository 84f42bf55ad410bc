// SPDX-License-Identifier: MIT
/*
 * Per-CPU interrupt nesting.  A CPU runs at most a softirq, a hardirq on
 * top of it, and (on a few architectures) an NMI-like handler on top of
 * that; a deeper stack can only mean exits the ring buffer lost.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/cpu_tracks.h"
#include "model/stats.h"

#define MAX_NEST 4

struct open_handler {
	bool soft;
	uint32_t num;		/* irq number or softirq vec */
};

struct cpu_state {
	struct open_handler open[MAX_NEST];
	unsigned int depth;
};

struct f2t_cpu_tracks {
	struct cpu_state cpu[F2T_MAX_CPUS];
};

struct f2t_cpu_tracks *f2t_cpu_tracks_new(void)
{
	struct f2t_cpu_tracks *c = calloc(1, sizeof(*c));

	if (!c)
		errno = ENOMEM;
	return c;
}

void f2t_cpu_tracks_free(struct f2t_cpu_tracks *c)
{
	free(c);
}

void f2t_cpu_irq(struct f2t_cpu_tracks *c, const struct f2t_event *ev,
		 struct f2t_irq_step *step)
{
	bool soft = ev->kind == F2T_EV_SOFTIRQ_ENTRY || ev->kind == F2T_EV_SOFTIRQ_EXIT;
	bool entry = ev->kind == F2T_EV_IRQ_ENTRY || ev->kind == F2T_EV_SOFTIRQ_ENTRY;
	uint32_t num = soft ? ev->softirq.vec : (uint32_t)ev->irq.irq;
	struct cpu_state *cs;

	step->close = 0;
	step->begin = false;
	if (ev->cpu >= F2T_MAX_CPUS)
		return;
	cs = &c->cpu[ev->cpu];
	if (entry) {
		if (cs->depth == MAX_NEST) {
			step->close = cs->depth;
			cs->depth = 0;
		}
		cs->open[cs->depth++] = (struct open_handler){ .soft = soft, .num = num };
		step->begin = true;
		return;
	}
	for (unsigned int i = cs->depth; i-- > 0;) {
		if (cs->open[i].soft == soft && cs->open[i].num == num) {
			step->close = cs->depth - i;
			cs->depth = i;
			return;
		}
	}
}

unsigned int f2t_cpu_lost(struct f2t_cpu_tracks *c, uint32_t cpu)
{
	unsigned int n;

	if (cpu >= F2T_MAX_CPUS)
		return 0;
	n = c->cpu[cpu].depth;
	c->cpu[cpu].depth = 0;
	return n;
}

uint32_t f2t_cpu_of(const struct f2t_event *ev)
{
	return ev->power.cpu_id < F2T_MAX_CPUS ? ev->power.cpu_id : ev->cpu;
}

int64_t f2t_cpu_idle_value(uint32_t state)
{
	return state == F2T_IDLE_EXIT ? -1 : (int64_t)state;
}
