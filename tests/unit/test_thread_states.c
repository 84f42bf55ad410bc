// SPDX-License-Identifier: MIT
/*
 * Thread states over time, on short event sequences whose spans are worked
 * out by hand in the comments: a wakeup then the switch in, a preemption,
 * D against S, a new task, an exit, a thread that existed before the trace,
 * a switch from idle the kernel did not record, lost events, a migration;
 * the scheduling gaps counted as the tracker counts them (the summary's).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/stats.h"
#include "model/thread_states.h"
#include "model/tracker.h"
#include "sched_events.h"

#define MAX_SPANS 256

struct rec {
	struct f2t_tstates *t;
	struct f2t_tstate_span s[MAX_SPANS];
	size_t n;
	/* For the last wait that ended with a switch in: what held its CPU. */
	struct f2t_tstate_holder held[4];
	size_t nheld;
	bool complete;
};

static int record(void *ctx, const struct f2t_tstate_span *s)
{
	struct rec *r = ctx;

	assert_true(r->n < MAX_SPANS);
	assert_true(s->end >= s->start);
	r->s[r->n++] = *s;
	if (s->switched && (s->state == F2T_TS_WOKEN || s->state == F2T_TS_PREEMPTED))
		r->nheld = f2t_tstates_holders(r->t, s->cpu, s->start, s->end, r->held, 4,
					       &r->complete);
	return 0;
}

static int setup(void **state)
{
	struct rec *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->t = f2t_tstates_new(8, record, r);
	assert_non_null(r->t);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rec *r = *state;

	f2t_tstates_free(r->t);
	free(r);
	return 0;
}

static void feed(struct rec *r, struct f2t_event ev)
{
	assert_int_equal(f2t_tstates_event(r->t, &ev), 0);
}

static void end(struct rec *r)
{
	assert_int_equal(f2t_tstates_end(r->t), 0);
}

/* The @i-th span of thread @tid. */
static const struct f2t_tstate_span *nth(const struct rec *r, int32_t tid, size_t i)
{
	for (size_t k = 0; k < r->n; k++)
		if (r->s[k].tid == tid && !i--)
			return &r->s[k];
	fail_msg("thread %d has no span %zu", tid, i);
	return NULL;
}

static size_t count(const struct rec *r, int32_t tid)
{
	size_t n = 0;

	for (size_t k = 0; k < r->n; k++)
		n += r->s[k].tid == tid;
	return n;
}

/* Span @i of @tid is @state over [@start, @end], then @next. */
static const struct f2t_tstate_span *expect(const struct rec *r, int32_t tid, size_t i,
					    enum f2t_tstate state, uint64_t start, uint64_t end,
					    enum f2t_tstate next)
{
	const struct f2t_tstate_span *s = nth(r, tid, i);

	if (s->state != state || s->start != start || s->end != end || s->next != next)
		fail_msg("thread %d span %zu: %s [%llu, %llu] then %s; expected %s [%llu, %llu] then %s",
			 tid, i, f2t_tstate_name(s->state), (unsigned long long)s->start,
			 (unsigned long long)s->end, f2t_tstate_name(s->next),
			 f2t_tstate_name(state), (unsigned long long)start,
			 (unsigned long long)end, f2t_tstate_name(next));
	return s;
}

static void test_wakeup_then_switch_in(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	/* 20 goes to sleep on cpu 0 at 100, the trace's first event. */
	feed(r, ev_switch(100, 0, 20, "S", 0));
	/* 30, on cpu 1, wakes it at 1000; cpu 0 switches to it at 1500. */
	feed(r, ev_waking(1000, 1, 30, 20));
	feed(r, ev_switch(1500, 0, 0, "R", 20));
	end(r);

	/* Before its first event nothing is known of 20. */
	s = expect(r, 20, 0, F2T_TS_UNKNOWN, 100, 100, F2T_TS_RUNNING);
	assert_int_equal(s->why, F2T_TSW_BEFORE);
	s = expect(r, 20, 1, F2T_TS_RUNNING, 100, 100, F2T_TS_SLEEPING);
	assert_true(s->switched);
	assert_int_equal(s->cpu, 0);
	expect(r, 20, 2, F2T_TS_SLEEPING, 100, 1000, F2T_TS_WOKEN);
	/* The wakeup latency: 1500 - 1000, woken by 30 from cpu 1, run on cpu 0. */
	s = expect(r, 20, 3, F2T_TS_WOKEN, 1000, 1500, F2T_TS_RUNNING);
	assert_true(s->switched);
	assert_int_equal(s->cpu, 0);
	assert_int_equal(s->waker, 30);
	assert_int_equal(s->waker_cpu, 1);
	assert_false(s->new_task);
	/* Meanwhile cpu 0 was idle. */
	assert_int_equal(r->nheld, 1);
	assert_int_equal(r->held[0].tid, 0);
	assert_int_equal(r->held[0].ns, 500);
	assert_true(r->complete);
	/* Still running when the trace ends. */
	expect(r, 20, 4, F2T_TS_RUNNING, 1500, 1500, F2T_TS_COUNT);
	assert_int_equal(count(r, 20), 5);
	/* 30 was found running on cpu 1 at 1000: unknown since the start until then. */
	s = expect(r, 30, 0, F2T_TS_UNKNOWN, 100, 1000, F2T_TS_RUNNING);
	assert_int_equal(s->why, F2T_TSW_BEFORE);
	expect(r, 30, 1, F2T_TS_RUNNING, 1000, 1500, F2T_TS_COUNT);
	/* cpu 0's idle task: from 100 to the switch at 1500. */
	s = expect(r, 0, 0, F2T_TS_RUNNING, 100, 1500, F2T_TS_PREEMPTED);
	assert_int_equal(s->cpu, 0);
	assert_true(s->switched);
	assert_int_equal(f2t_tstates_counts(r->t)->gaps, 0);
}

static void test_preemption(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	feed(r, ev_switch(100, 0, 0, "R", 40));
	/* 41 preempts 40 at 400 ("R+"), and runs until it sleeps at 700. */
	feed(r, ev_switch(400, 0, 40, "R+", 41));
	feed(r, ev_switch(700, 0, 41, "S", 40));
	/* A switch out in plain "R" (a yield) leaves it runnable too. */
	feed(r, ev_switch(800, 0, 40, "R", 0));
	end(r);

	expect(r, 40, 0, F2T_TS_UNKNOWN, 100, 100, F2T_TS_RUNNING);
	s = expect(r, 40, 1, F2T_TS_RUNNING, 100, 400, F2T_TS_PREEMPTED);
	assert_true(s->switched);
	/* A wait for the CPU, not a wakeup latency: no waker. */
	s = expect(r, 40, 2, F2T_TS_PREEMPTED, 400, 700, F2T_TS_RUNNING);
	assert_true(s->switched);
	assert_int_equal(s->cpu, 0);
	assert_int_equal(s->waker, -1);
	assert_int_equal(r->nheld, 1);
	assert_int_equal(r->held[0].tid, 41);
	assert_int_equal(r->held[0].ns, 300);
	expect(r, 40, 3, F2T_TS_RUNNING, 700, 800, F2T_TS_PREEMPTED);
	/* Runnable at the end of the trace: not a finished wait. */
	s = expect(r, 40, 4, F2T_TS_PREEMPTED, 800, 800, F2T_TS_COUNT);
	assert_false(s->switched);
	expect(r, 41, 1, F2T_TS_RUNNING, 400, 700, F2T_TS_SLEEPING);
}

static void test_blocked_is_not_sleeping(void **state)
{
	struct rec *r = *state;
	static const struct {
		const char *letters;
		enum f2t_tstate state;
	} cases[] = {
		{ "D", F2T_TS_BLOCKED }, { "S", F2T_TS_SLEEPING }, { "D|K", F2T_TS_BLOCKED },
		{ "I", F2T_TS_IDLE }, { "T", F2T_TS_STOPPED }, { "t", F2T_TS_STOPPED },
		{ "P", F2T_TS_STOPPED }, { "W", F2T_TS_UNKNOWN },
	};
	const size_t n = sizeof(cases) / sizeof(cases[0]);
	const struct f2t_tstate_span *s;

	/* Threads 50, 51, ... run in turn on cpu 0, each leaving in its case's state. */
	feed(r, ev_switch(100, 0, 0, "R", 50));
	for (size_t i = 0; i < n; i++)
		feed(r, ev_switch(200 + 100 * i, 0, 50 + (int32_t)i, cases[i].letters,
				  i + 1 < n ? 51 + (int32_t)i : 0));
	end(r);
	for (size_t i = 0; i < n; i++) {
		int32_t tid = 50 + (int32_t)i;
		uint64_t out = 200 + 100 * i, last = 200 + 100 * (n - 1);

		expect(r, tid, 1, F2T_TS_RUNNING, out - 100, out, cases[i].state);
		s = expect(r, tid, 2, cases[i].state, out, last, F2T_TS_COUNT);
		if (cases[i].state == F2T_TS_UNKNOWN)
			assert_int_equal(s->why, F2T_TSW_UNSEEN);
	}
	assert_int_equal(f2t_tstates_counts(r->t)->unknown_letters, 1);
	assert_int_equal(f2t_tstates_parse_state("R+"), F2T_TS_PREEMPTED);
	assert_int_equal(f2t_tstates_parse_state("X"), F2T_TS_DEAD);
	assert_int_equal(f2t_tstates_parse_state("Z"), F2T_TS_DEAD);
	assert_int_equal(f2t_tstates_parse_state("x"), F2T_TS_DEAD);
	assert_int_equal(f2t_tstates_parse_state(""), F2T_TS_UNKNOWN);
}

static void test_new_task(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	feed(r, ev_switch(100, 0, 0, "R", 10));
	/* 10 forks 11 at 200 and wakes it at 210; 11 runs when 10 sleeps at 300. */
	feed(r, ev_fork(200, 0, 10, 11));
	feed(r, ev_wakeup_new(210, 0, 10, 11));
	feed(r, ev_switch(300, 0, 10, "S", 11));
	end(r);

	/* Its life starts at the wakeup: nothing unknown before, the parent woke it. */
	s = expect(r, 11, 0, F2T_TS_WOKEN, 210, 300, F2T_TS_RUNNING);
	assert_true(s->new_task);
	assert_true(s->switched);
	assert_int_equal(s->waker, 10);
	assert_int_equal(s->waker_cpu, 0);
	s = expect(r, 11, 1, F2T_TS_RUNNING, 300, 300, F2T_TS_COUNT);
	assert_false(s->migrated);
	assert_int_equal(count(r, 11), 2);
}

static void test_exit_mid_trace(void **state)
{
	struct rec *r = *state;

	feed(r, ev_switch(100, 0, 0, "R", 60));
	feed(r, ev_exit(150, 0, 60));
	feed(r, ev_switch(200, 0, 60, "X", 0));
	feed(r, ev_switch(220, 1, 61, "Z", 0));
	feed(r, ev_mark(500, 1, 0));
	end(r);

	expect(r, 60, 1, F2T_TS_RUNNING, 100, 200, F2T_TS_DEAD);
	/* Dead: no time after, not even at the end of the trace. */
	assert_int_equal(count(r, 60), 2);
	expect(r, 61, 1, F2T_TS_RUNNING, 220, 220, F2T_TS_DEAD);
	assert_int_equal(count(r, 61), 2);
}

static void test_thread_alive_before_the_trace(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	/* 80 runs on cpu 0 when the trace starts; 81 sleeps until 80 wakes it. */
	feed(r, ev_mark(100, 0, 80));
	feed(r, ev_waking(1000, 0, 80, 81));
	end(r);

	s = expect(r, 81, 0, F2T_TS_UNKNOWN, 100, 1000, F2T_TS_WOKEN);
	assert_int_equal(s->why, F2T_TSW_BEFORE);
	/* Still waiting at the end: the wait's length is not known. */
	s = expect(r, 81, 1, F2T_TS_WOKEN, 1000, 1000, F2T_TS_COUNT);
	assert_false(s->switched);
	assert_int_equal(s->waker, 80);
	expect(r, 80, 1, F2T_TS_RUNNING, 100, 1000, F2T_TS_COUNT);
}

static void test_missing_switch_from_idle(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	/* cpu 1 goes idle at 100; an interrupt there wakes 91 at 150. */
	feed(r, ev_switch(100, 1, 90, "S", 0));
	feed(r, ev_waking(150, 1, 0, 91));
	/* At 250 cpu 1 still runs its idle task (an event of pid 0 there)... */
	feed(r, ev_mark(250, 1, 0));
	/* ...and at 400 91 runs there, with no switch to it recorded. */
	feed(r, ev_mark(400, 1, 91));
	feed(r, ev_switch(500, 1, 91, "S", 0));
	end(r);

	assert_int_equal(f2t_tstates_counts(r->t)->gaps, 1);
	expect(r, 91, 0, F2T_TS_UNKNOWN, 100, 150, F2T_TS_WOKEN);
	/* Waiting until 250, when cpu 1 ran something else; not a finished wait. */
	s = expect(r, 91, 1, F2T_TS_WOKEN, 150, 250, F2T_TS_UNKNOWN);
	assert_false(s->switched);
	/* When between 250 and 400 it started to run is not known: no latency. */
	s = expect(r, 91, 2, F2T_TS_UNKNOWN, 250, 400, F2T_TS_RUNNING);
	assert_int_equal(s->why, F2T_TSW_GAP);
	assert_false(s->switched);
	s = expect(r, 91, 3, F2T_TS_RUNNING, 400, 500, F2T_TS_SLEEPING);
	assert_true(s->switched);
	/* cpu 1 was idle until its last event from the idle task, then unknown. */
	s = expect(r, 0, 0, F2T_TS_RUNNING, 100, 250, F2T_TS_UNKNOWN);
	assert_int_equal(s->cpu, 1);
	assert_false(s->switched);
	expect(r, 0, 1, F2T_TS_RUNNING, 500, 500, F2T_TS_COUNT);
}

static void test_lost_events(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	feed(r, ev_switch(100, 0, 0, "R", 100));
	feed(r, ev_switch(110, 1, 101, "S", 0));
	feed(r, ev_mark(150, 0, 100));
	/* cpu 0 loses 7 events before 300: maybe switches, maybe wakeups. */
	feed(r, ev_lost(300, 0, 7));
	feed(r, ev_switch(400, 0, 100, "S", 0));
	feed(r, ev_waking(500, 0, 0, 101));
	feed(r, ev_switch(600, 1, 0, "R", 101));
	end(r);

	/* 100 ran until cpu 0's last event before the loss; then unknown until seen again. */
	s = expect(r, 100, 1, F2T_TS_RUNNING, 100, 150, F2T_TS_UNKNOWN);
	assert_false(s->switched);
	s = expect(r, 100, 2, F2T_TS_UNKNOWN, 150, 400, F2T_TS_RUNNING);
	assert_int_equal(s->why, F2T_TSW_LOST);
	expect(r, 100, 3, F2T_TS_RUNNING, 400, 400, F2T_TS_SLEEPING);
	/* 101's sleep spans the loss: the lost events may have woken and run it. */
	s = expect(r, 101, 2, F2T_TS_UNKNOWN, 110, 500, F2T_TS_WOKEN);
	assert_int_equal(s->why, F2T_TSW_LOST);
	/* A wait after the loss is whole again. */
	s = expect(r, 101, 3, F2T_TS_WOKEN, 500, 600, F2T_TS_RUNNING);
	assert_true(s->switched);
	assert_int_equal(f2t_tstates_counts(r->t)->lost_notes, 1);
	assert_int_equal(f2t_tstates_counts(r->t)->lost_events, 7);
	assert_int_equal(f2t_tstates_counts(r->t)->gaps, 0);
}

/*
 * The gaps counted here are the tracker's (the summary's `sched_gaps`):
 * 100 runs on cpu 0; on cpu 1, where 200 was put, an event of 100 (the
 * switch there to 100 was not recorded: a gap); back on cpu 0, an event of
 * 300 (the switch from 100 to 300 was not recorded either: a second gap,
 * though 100's move to cpu 1 already said cpu 0 had changed hands).  After
 * a loss, nothing: the lost events may hold the switch.
 */
static void test_gaps_as_the_tracker_counts(void **state)
{
	struct rec *r = *state;
	struct f2t_tasks *tasks = f2t_tasks_new(), *hints = f2t_tasks_new();
	struct f2t_tracker *tr = f2t_tracker_new(tasks, hints);
	struct f2t_stats st = { 0 };
	const struct f2t_event evs[] = {
		ev_switch(100, 0, 0, "R", 100),
		ev_switch(110, 1, 0, "R", 200),
		ev_mark(120, 1, 100),
		ev_mark(130, 0, 300),
		ev_switch(140, 0, 300, "S", 0),
		ev_lost(150, 1, 3),
		ev_mark(160, 1, 400),
	};

	assert_non_null(tr);
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		feed(r, evs[i]);
		assert_int_equal(f2t_tracker_event(tr, &evs[i], &st), 0);
	}
	end(r);
	assert_int_equal(st.sched_gaps, 2);
	assert_int_equal(f2t_tstates_counts(r->t)->gaps, 2);
	f2t_tracker_free(tr);
	f2t_tasks_free(tasks);
	f2t_tasks_free(hints);
}

static void test_migration(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	feed(r, ev_switch(100, 0, 0, "R", 120));
	feed(r, ev_switch(200, 0, 120, "S", 0));
	feed(r, ev_waking(300, 1, 0, 120));
	feed(r, ev_switch(350, 1, 0, "R", 120));
	feed(r, ev_switch(400, 1, 120, "R+", 0));
	feed(r, ev_switch(450, 1, 0, "R", 120));
	end(r);

	s = expect(r, 120, 1, F2T_TS_RUNNING, 100, 200, F2T_TS_SLEEPING);
	assert_false(s->migrated);
	s = expect(r, 120, 3, F2T_TS_WOKEN, 300, 350, F2T_TS_RUNNING);
	assert_int_equal(s->cpu, 1);
	s = expect(r, 120, 4, F2T_TS_RUNNING, 350, 400, F2T_TS_PREEMPTED);
	assert_true(s->migrated);
	assert_int_equal(s->cpu, 1);
	s = expect(r, 120, 6, F2T_TS_RUNNING, 450, 450, F2T_TS_COUNT);
	assert_false(s->migrated);
}

static void test_woken_on_its_way_to_sleep(void **state)
{
	struct rec *r = *state;
	const struct f2t_tstate_span *s;

	/* 131 wakes 130 at 150 while 130 still runs on cpu 0; 130 then
	 * switches out in S, but it is already runnable. */
	feed(r, ev_switch(100, 0, 0, "R", 130));
	feed(r, ev_waking(150, 1, 131, 130));
	feed(r, ev_switch(160, 0, 130, "S", 0));
	feed(r, ev_switch(200, 0, 0, "R", 130));
	end(r);

	expect(r, 130, 1, F2T_TS_RUNNING, 100, 160, F2T_TS_WOKEN);
	s = expect(r, 130, 2, F2T_TS_WOKEN, 160, 200, F2T_TS_RUNNING);
	assert_true(s->switched);
	assert_int_equal(s->waker, 131);
	assert_int_equal(f2t_tstates_counts(r->t)->wakeups_while_running, 1);
}

static void test_what_held_the_cpu(void **state)
{
	struct rec *r = *state;

	/* 140 is woken at 1000; cpu 0 runs 141 (since 900), then 142, then 140. */
	feed(r, ev_switch(900, 0, 0, "R", 141));
	feed(r, ev_waking(1000, 0, 141, 140));
	feed(r, ev_switch(1200, 0, 141, "R+", 142));
	feed(r, ev_switch(1300, 0, 142, "S", 140));
	assert_int_equal(r->nheld, 2);
	assert_int_equal(r->held[0].tid, 141);
	assert_int_equal(r->held[0].ns, 200);
	assert_int_equal(r->held[1].tid, 142);
	assert_int_equal(r->held[1].ns, 100);
	assert_true(r->complete);

	/* 141 waits from 1200 through 20 switches: only the latest are kept. */
	for (int i = 0; i < 20; i++)
		feed(r, ev_switch(1400 + 10 * (uint64_t)i, 0, i ? 150 + i - 1 : 140, "S", 150 + i));
	feed(r, ev_switch(1600, 0, 169, "S", 141));
	assert_false(r->complete);
	assert_int_equal(r->nheld, 4);
	/* 169 held it last, 10 ns; the others as long, the oldest ones unlisted. */
	for (size_t i = 0; i < r->nheld; i++)
		assert_int_equal(r->held[i].ns, 10);
}

/*
 * A sched_switch whose previous pid is negative (a damaged record; no
 * kernel task has one) says nothing of who ran: what follows reads as if
 * it were not there.  As the first event of a CPU it once took the CPU's
 * task for a thread the table did not have (a NULL entry: a crash).
 */
static void test_negative_pid_switch(void **state)
{
	struct rec *r = *state, *clean = calloc(1, sizeof(*clean));
	const struct f2t_event valid[] = {
		ev_switch(200, 0, 100, "S", 101),
		ev_waking(300, 1, 0, 100),
		ev_switch(400, 0, 101, "R", 100),
	};

	assert_non_null(clean);
	clean->t = f2t_tstates_new(8, record, clean);
	assert_non_null(clean->t);
	/* At the first valid event's time, so that the trace starts there either way. */
	feed(r, ev_switch(200, 0, -1, "R", 100));
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		feed(r, valid[i]);
		feed(clean, valid[i]);
	}
	end(r);
	end(clean);
	assert_int_equal(r->n, clean->n);
	for (size_t i = 0; i < r->n; i++) {
		assert_int_equal(r->s[i].tid, clean->s[i].tid);
		assert_int_equal(r->s[i].state, clean->s[i].state);
		assert_int_equal(r->s[i].start, clean->s[i].start);
		assert_int_equal(r->s[i].end, clean->s[i].end);
	}
	assert_true(count(r, 100) > 0);
	f2t_tstates_free(clean->t);
	free(clean);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wakeup_then_switch_in, setup, teardown),
		cmocka_unit_test_setup_teardown(test_preemption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blocked_is_not_sleeping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_mid_trace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_alive_before_the_trace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_switch_from_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gaps_as_the_tracker_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_woken_on_its_way_to_sleep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_what_held_the_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_negative_pid_switch, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
