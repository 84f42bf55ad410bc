// SPDX-License-Identifier: MIT
/* The scheduling tracker keeps names and processes true and counts the kernel's gaps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/tracker.h"

struct fixture {
	struct f2t_tasks *tasks, *hints;
	struct f2t_tracker *tr;
	struct f2t_stats st;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->tasks = f2t_tasks_new();
	f->hints = f2t_tasks_new();
	f->tr = f2t_tracker_new(f->tasks, f->hints);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	f2t_tracker_free(f->tr);
	f2t_tasks_free(f->tasks);
	f2t_tasks_free(f->hints);
	free(f);
	return 0;
}

static void feed(struct fixture *f, struct f2t_event ev)
{
	assert_int_equal(f2t_tracker_event(f->tr, &ev, &f->st), 0);
}

static struct f2t_event sw(uint32_t cpu, int32_t prev, const char *pcomm, int32_t next,
			   const char *ncomm)
{
	struct f2t_event ev = { .kind = F2T_EV_SWITCH, .cpu = cpu, .pid = prev };

	ev.sw.prev_pid = prev;
	ev.sw.prev_comm = pcomm;
	ev.sw.prev_prio = 120;
	ev.sw.next_pid = next;
	ev.sw.next_comm = ncomm;
	ev.sw.next_prio = 100;
	strcpy(ev.sw.prev_state, "S");
	return ev;
}

static void test_switch_names_both_tasks(void **state)
{
	struct fixture *f = *state;
	const struct f2t_task *t;

	feed(f, sw(0, 10, "bash", 20, "make"));
	t = f2t_tasks_find(f->tasks, 20);
	assert_non_null(t);
	assert_string_equal(t->comm, "make");
	assert_int_equal(t->prio, 100);
	assert_int_equal(t->tgid, 20);
	assert_string_equal(f2t_tasks_find(f->tasks, 10)->comm, "bash");
	assert_int_equal(f->st.events[F2T_EV_SWITCH], 1);
	assert_int_equal(f->st.sched_gaps, 0);
}

static void test_thread_joins_parents_process(void **state)
{
	struct fixture *f = *state;
	struct f2t_event ev = { .kind = F2T_EV_FORK, .pid = 100 };

	f2t_task_set(f2t_tasks_get(f->tasks, 100), "server", 90);
	ev.fork.parent_pid = 100;
	ev.fork.parent_comm = "server";
	ev.fork.child_pid = 101;
	ev.fork.child_comm = "server";
	ev.fork.clone_thread = 1;
	feed(f, ev);
	assert_int_equal(f2t_tasks_find(f->tasks, 101)->tgid, 90);

	ev.fork.child_pid = 102;
	ev.fork.clone_thread = 0;
	feed(f, ev);
	assert_int_equal(f2t_tasks_find(f->tasks, 102)->tgid, 102);
}

static void test_unknown_fork_kind_uses_hints(void **state)
{
	struct fixture *f = *state;
	struct f2t_event ev = { .kind = F2T_EV_FORK, .pid = 100 };

	f2t_task_set(f2t_tasks_get(f->hints, 103), "worker", 100);
	ev.fork.parent_pid = 100;
	ev.fork.parent_comm = "server";
	ev.fork.child_pid = 103;
	ev.fork.child_comm = "server";
	ev.fork.clone_thread = -1;
	feed(f, ev);
	assert_int_equal(f2t_tasks_find(f->tasks, 103)->tgid, 100);
}

static void test_exec_and_rename_bump_generation(void **state)
{
	struct fixture *f = *state;
	struct f2t_event ev = { .kind = F2T_EV_EXEC, .pid = 50 };
	struct f2t_task *t = f2t_tasks_get(f->tasks, 50);
	uint32_t gen;

	f2t_task_set(t, "bash", 50);
	gen = t->gen;
	ev.exec.pid = 50;
	ev.exec.old_pid = 50;
	ev.exec.filename = "/usr/bin/a-very-long-program-name";
	feed(f, ev);
	/* The kernel keeps 15 bytes of the file's base name. */
	assert_string_equal(t->comm, "a-very-long-pro");
	assert_true(t->gen > gen);
	gen = t->gen;

	ev = (struct f2t_event){ .kind = F2T_EV_RENAME, .pid = 50 };
	ev.rename.pid = 50;
	ev.rename.oldcomm = "a-very-long-pro";
	ev.rename.newcomm = "worker-1";
	feed(f, ev);
	assert_string_equal(t->comm, "worker-1");
	assert_true(t->gen > gen);
	gen = t->gen;
	/* The same name again is not a change. */
	feed(f, ev);
	assert_int_equal(t->gen, gen);
}

static void test_missing_switch_from_idle_is_a_gap(void **state)
{
	struct fixture *f = *state;
	struct f2t_event waking = { .kind = F2T_EV_WAKING, .cpu = 1, .pid = 30 };

	waking.wake.pid = 31;
	waking.wake.comm = "pong";
	waking.wake.prio = 120;
	waking.wake.target_cpu = 0;
	/* 30 goes idle on cpu 1; the switch back from idle is never recorded... */
	feed(f, sw(1, 30, "ping", 0, "swapper/1"));
	/* ...yet 30 runs there again: one gap, counted once. */
	feed(f, waking);
	feed(f, waking);
	assert_int_equal(f->st.sched_gaps, 1);
	/* The next switch starts from 30, which is now consistent. */
	feed(f, sw(1, 30, "ping", 0, "swapper/1"));
	assert_int_equal(f->st.sched_gaps, 1);
	/* A switch from a task that was not there is a gap too. */
	feed(f, sw(1, 44, "other", 0, "swapper/1"));
	assert_int_equal(f->st.sched_gaps, 2);
}

static void test_loss_forgets_what_ran(void **state)
{
	struct fixture *f = *state;
	struct f2t_event lost = { .kind = F2T_EV_LOST, .cpu = 0, .pid = -1 };

	feed(f, sw(0, 30, "ping", 0, "swapper/0"));
	feed(f, lost);
	feed(f, sw(0, 31, "pong", 0, "swapper/0"));
	assert_int_equal(f->st.sched_gaps, 0);
}

/* perf gives a sample taken late in a thread's exit tid -1: the CPU's thread, if of its process. */
static void test_sample_without_tid_is_the_cpus_thread(void **state)
{
	struct fixture *f = *state;
	struct f2t_event smp = { .kind = F2T_EV_SAMPLE, .cpu = 1, .pid = -1 };

	f2t_task_set(f2t_tasks_get(f->tasks, 101), "worker", 90);
	feed(f, sw(1, 0, "swapper/1", 101, "worker"));
	smp.sample.tgid = 90;
	assert_int_equal(f2t_tracker_sample_tid(f->tr, &smp), 101);
	smp.sample.tgid = 91;		/* another process's: not that thread */
	assert_int_equal(f2t_tracker_sample_tid(f->tr, &smp), 0);
	smp.sample.tgid = 90;
	smp.cpu = 0;			/* no switch seen there */
	assert_int_equal(f2t_tracker_sample_tid(f->tr, &smp), 0);
}

/* A name the source knew (a trace.dat's saved cmdlines) names a task the table does not know. */
static void test_learned_name_only_for_a_new_task(void **state)
{
	struct fixture *f = *state;
	struct f2t_event ev = { .kind = F2T_EV_OTHER, .pid = 30, .pid_comm = "saved" };

	f2t_task_set(f2t_tasks_get(f->tasks, 31), "known", 31);
	assert_int_equal(f2t_tracker_learn(f->tr, &ev), 0);
	assert_string_equal(f2t_tasks_find(f->tasks, 30)->comm, "saved");
	ev.pid = 31;
	assert_int_equal(f2t_tracker_learn(f->tr, &ev), 0);
	assert_string_equal(f2t_tasks_find(f->tasks, 31)->comm, "known");
	assert_int_equal(f2t_tasks_count(f->tasks), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_switch_names_both_tasks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sample_without_tid_is_the_cpus_thread, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_thread_joins_parents_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_fork_kind_uses_hints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_and_rename_bump_generation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_switch_from_idle_is_a_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loss_forgets_what_ran, setup, teardown),
		cmocka_unit_test_setup_teardown(test_learned_name_only_for_a_new_task, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
