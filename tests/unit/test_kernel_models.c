// SPDX-License-Identifier: MIT
/*
 * The decisions behind per-CPU irq slices (model/cpu_tracks.h) and
 * function-graph slices (model/fgraph.h) on streams the kernel leaves
 * unbalanced: lost exits, exits before the trace, idle tasks of several
 * CPUs sharing pid 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/cpu_tracks.h"
#include "model/fgraph.h"

static struct f2t_event irq(enum f2t_event_kind kind, uint32_t cpu, int32_t num)
{
	struct f2t_event ev = { .kind = kind, .cpu = cpu };

	if (kind == F2T_EV_SOFTIRQ_ENTRY || kind == F2T_EV_SOFTIRQ_EXIT) {
		ev.softirq.vec = (uint32_t)num;
		ev.softirq.name = "X";
	} else {
		ev.irq.irq = num;
		ev.irq.name = "x";
	}
	return ev;
}

static void step_is(struct f2t_cpu_tracks *c, struct f2t_event ev, unsigned int close, bool begin)
{
	struct f2t_irq_step st;

	f2t_cpu_irq(c, &ev, &st);
	assert_int_equal(st.close, close);
	assert_int_equal(st.begin, begin);
}

static void test_irq_lost_exits(void **state)
{
	struct f2t_cpu_tracks *c = f2t_cpu_tracks_new();

	step_is(c, irq(F2T_EV_SOFTIRQ_ENTRY, 1, 3), 0, true);
	step_is(c, irq(F2T_EV_IRQ_ENTRY, 1, 24), 0, true);
	/* The hardirq's exit was lost: the softirq's exit ends both. */
	step_is(c, irq(F2T_EV_SOFTIRQ_EXIT, 1, 3), 2, false);
	/* Another CPU's handlers are its own; an irq number is not a vec. */
	step_is(c, irq(F2T_EV_IRQ_ENTRY, 0, 3), 0, true);
	step_is(c, irq(F2T_EV_SOFTIRQ_EXIT, 0, 3), 0, false);
	step_is(c, irq(F2T_EV_IRQ_EXIT, 1, 3), 0, false);
	/* Lost events: what was open on that CPU ends, only there. */
	step_is(c, irq(F2T_EV_IRQ_ENTRY, 1, 5), 0, true);
	assert_int_equal(f2t_cpu_lost(c, 1), 1);
	assert_int_equal(f2t_cpu_lost(c, 1), 0);
	step_is(c, irq(F2T_EV_IRQ_EXIT, 0, 3), 1, false);
	/* Deeper than real nesting allows: exits were lost, all end first. */
	for (int i = 0; i < 4; i++)
		step_is(c, irq(F2T_EV_IRQ_ENTRY, 2, i), 0, true);
	step_is(c, irq(F2T_EV_IRQ_ENTRY, 2, 9), 4, true);
	f2t_cpu_tracks_free(c);
}

static void test_idle_value(void **state)
{
	struct f2t_event ev = { .kind = F2T_EV_CPU_IDLE, .cpu = 1 };

	assert_int_equal(f2t_cpu_idle_value(2), 2);
	assert_int_equal(f2t_cpu_idle_value(4294967295u), -1);
	ev.power.cpu_id = 0;
	assert_int_equal(f2t_cpu_of(&ev), 0);
	ev.power.cpu_id = 4294967295u;	/* not a CPU: the recording one */
	assert_int_equal(f2t_cpu_of(&ev), 1);
}

static struct f2t_fg_step fg(struct f2t_fgraph *g, bool entry, uint64_t ts, int32_t pid,
			     uint32_t cpu, uint64_t func, uint32_t depth, uint64_t dur)
{
	struct f2t_event ev = { .ts = ts, .pid = pid, .cpu = cpu,
				.kind = entry ? F2T_EV_FUNCGRAPH_ENTRY : F2T_EV_FUNCGRAPH_EXIT };
	struct f2t_fg_step st;

	ev.graph.func = func;
	ev.graph.depth = depth;
	ev.graph.calltime = 1000;
	ev.graph.rettime = 1000 + dur;
	assert_int_equal(f2t_fgraph_event(g, &ev, &st), 0);
	return st;
}

static void test_graph_resync(void **state)
{
	struct f2t_fgraph *g = f2t_fgraph_new();
	struct f2t_fg_step st;

	st = fg(g, true, 100, 7, 0, 0xa, 0, 0);
	assert_true(st.begin && !st.close);
	st = fg(g, true, 110, 7, 0, 0xb, 1, 0);
	/* b's exit was lost: the next call at its depth ends it first. */
	st = fg(g, true, 120, 7, 0, 0xc, 1, 0);
	assert_true(st.begin);
	assert_int_equal(st.close, 1);
	st = fg(g, false, 130, 7, 0, 0xc, 1, 10);
	assert_true(!st.begin && !st.complete);
	assert_int_equal(st.close, 1);
	/* An exit without entry, inside the open a: whole, within a. */
	st = fg(g, false, 140, 7, 0, 0xd, 1, 1000);
	assert_true(st.complete);
	assert_int_equal(st.close, 0);
	assert_int_equal(st.start, 100);
	st = fg(g, false, 150, 7, 0, 0xa, 0, 50);
	assert_true(!st.complete);
	assert_int_equal(st.close, 1);
	assert_int_equal(f2t_fgraph_unmatched(g), 1);
	f2t_fgraph_free(g);
}

static void test_graph_idle_cpus_apart(void **state)
{
	struct f2t_fgraph *g = f2t_fgraph_new();
	struct f2t_fg_step st;

	/* pid 0 on CPU 0 and on CPU 1: two idle tasks, two stacks. */
	st = fg(g, true, 100, 0, 0, 0xa, 0, 0);
	st = fg(g, true, 105, 0, 1, 0xa, 0, 0);
	assert_int_equal(st.close, 0);
	st = fg(g, false, 110, 0, 1, 0xa, 0, 5);
	assert_int_equal(st.close, 1);
	st = fg(g, false, 120, 0, 0, 0xa, 0, 20);
	assert_int_equal(st.close, 1);
	assert_false(st.complete);
	/* Many threads: the map grows and keeps each one's stack. */
	for (int32_t pid = 1; pid < 2000; pid++)
		fg(g, true, 200, pid, 0, 0xe, 0, 0);
	for (int32_t pid = 1; pid < 2000; pid++) {
		st = fg(g, false, 300, pid, 1, 0xe, 0, 100);
		assert_int_equal(st.close, 1);
	}
	assert_int_equal(f2t_fgraph_unmatched(g), 0);
	f2t_fgraph_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_lost_exits),
		cmocka_unit_test(test_idle_value),
		cmocka_unit_test(test_graph_resync),
		cmocka_unit_test(test_graph_idle_cpus_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
