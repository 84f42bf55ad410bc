// SPDX-License-Identifier: MIT
/*
 * The off-CPU report: blocked time summed per thread with S and D apart and
 * per stack; the waker with the most time under each stack; an interrupt
 * waker's stack cut at the interrupt's entry; the folded lines, user frames
 * before kernel frames, threads of one name sharing a line; the slice name
 * the model gives an episode (the first frame outside the scheduler).
 * Expected figures are worked out by hand from the episodes below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/offcpu.h"
#include "report/offcpu.h"
#include "util/out.h"

#define MS 1000000ull

#define k(fn) { .func = fn, .module = "[kernel.kallsyms]", .kernel = true }
#define u(fn) { .func = fn, .module = "/bin/app" }

/* Innermost first, kernel then user, as the off-CPU source hands them out. */
static const struct f2t_frame pipe_stack[] = { k("__schedule"), k("schedule"), k("pipe_read"),
					       k("vfs_read"), u("read"), u("reader_loop"),
					       u("main") };
static const struct f2t_frame sync_stack[] = { k("__schedule"), k("io_schedule"),
					       k("folio_wait_bit"), k("do_fsync"), u("fdatasync"),
					       u("main") };
static const struct f2t_frame write_stack[] = { k("try_to_wake_up"), k("pipe_write"),
						u("write"), u("writer_loop") };
static const struct f2t_frame irq_stack[] = { k("try_to_wake_up"), k("hrtimer_wakeup"),
					      k("asm_sysvec_apic_timer_interrupt"),
					      u("some_other_task_code") };

static struct f2t_event episode(int32_t tid, char state, uint64_t start, uint64_t ns,
				const struct f2t_frame *f, uint32_t n, int32_t waker,
				const struct f2t_frame *wf, uint32_t wn)
{
	struct f2t_event ev = { .kind = F2T_EV_OFFCPU, .ts = start + ns, .pid = tid };

	ev.offcpu.tgid = 100;
	ev.offcpu.start = start;
	ev.offcpu.state = state;
	ev.offcpu.frames = f;
	ev.offcpu.nframes = n;
	ev.offcpu.waker_tid = waker;
	ev.offcpu.waker_tgid = 100;
	ev.offcpu.waker_frames = wf;
	ev.offcpu.waker_nframes = wn;
	return ev;
}

#define N(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

/* rd (101): 3 x 10 ms in the pipe (woken by wr, 102) and 5 ms in D; rd2 (104), another
 * thread named rd: 2 ms in the pipe woken from a timer interrupt on 103's time. */
static struct f2t_offcpu_report *workload(struct f2t_tasks **tasks)
{
	static const char snap[] = "100 100 app\n101 100 rd\n102 100 wr\n103 103 other\n"
				   "104 100 rd\n";
	struct f2t_offcpu_report *r = f2t_offcpu_report_new();
	struct f2t_event evs[] = {
		episode(101, 'S', 0, 10 * MS, pipe_stack, N(pipe_stack), 102, write_stack,
			N(write_stack)),
		episode(101, 'S', 20 * MS, 10 * MS, pipe_stack, N(pipe_stack), 102, write_stack,
			N(write_stack)),
		episode(101, 'D', 40 * MS, 5 * MS, sync_stack, N(sync_stack), 0, NULL, 0),
		episode(101, 'S', 50 * MS, 10 * MS, pipe_stack, N(pipe_stack), 102, write_stack,
			N(write_stack)),
		episode(104, 'S', 60 * MS, 2 * MS, pipe_stack, N(pipe_stack), 103, irq_stack,
			N(irq_stack)),
	};
	int line = 0;

	assert_non_null(r);
	*tasks = f2t_tasks_new();
	assert_non_null(*tasks);
	assert_int_equal(f2t_tasks_load_snapshot(*tasks, snap, sizeof(snap) - 1, &line), 5);
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		assert_int_equal(f2t_offcpu_report_add(r, &evs[i]), 0);
	return r;
}

/* What a report function wrote, through an output on a temporary file. */
static char *printed(int (*fn)(const struct f2t_offcpu_report *, const struct f2t_tasks *,
			       struct f2t_out *),
		     const struct f2t_offcpu_report *r, struct f2t_tasks *t)
{
	FILE *f = tmpfile();
	struct f2t_out *out;
	char *buf;
	long len;

	assert_non_null(f);
	out = f2t_out_fdopen(fileno(f), "report");
	assert_non_null(out);
	assert_int_equal(fn(r, t, out), 0);
	assert_int_equal(f2t_out_close(out), 0);
	len = lseek(fileno(f), 0, SEEK_END);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fileno(f), buf, (size_t)len, 0), len);
	fclose(f);
	return buf;
}

static int print_top2(const struct f2t_offcpu_report *r, const struct f2t_tasks *t,
		      struct f2t_out *f)
{
	return f2t_offcpu_report_print(r, t, 2, f);
}

static int print_top3(const struct f2t_offcpu_report *r, const struct f2t_tasks *t, struct f2t_out *f)
{
	return f2t_offcpu_report_print(r, t, 3, f);
}

static void test_thread_totals_keep_states_apart(void **state)
{
	struct f2t_tasks *tasks;
	struct f2t_offcpu_report *r = workload(&tasks);

	assert_int_equal(f2t_offcpu_report_thread_ns(r, 101, 'S'), 30 * MS);
	assert_int_equal(f2t_offcpu_report_thread_ns(r, 101, 'D'), 5 * MS);
	assert_int_equal(f2t_offcpu_report_thread_ns(r, 101, 0), 35 * MS);
	assert_int_equal(f2t_offcpu_report_thread_ns(r, 104, 0), 2 * MS);
	assert_int_equal(f2t_offcpu_report_thread_ns(r, 102, 0), 0);
	f2t_offcpu_report_free(r);
	f2t_tasks_free(tasks);
}

static void test_folded_lines(void **state)
{
	struct f2t_tasks *tasks;
	struct f2t_offcpu_report *r = workload(&tasks);
	char *out = printed(f2t_offcpu_report_folded, r, tasks);

	/* rd and rd2 share the pipe line (30 + 2 ms); sorted by line. */
	assert_string_equal(out,
			    "rd;main;fdatasync;do_fsync;folio_wait_bit;io_schedule;__schedule 5000\n"
			    "rd;main;reader_loop;read;vfs_read;pipe_read;schedule;__schedule 32000\n");
	free(out);
	f2t_offcpu_report_free(r);
	f2t_tasks_free(tasks);
}

static void test_table_ranks_stacks_and_names_wakers(void **state)
{
	struct f2t_tasks *tasks;
	struct f2t_offcpu_report *r = workload(&tasks);
	char *out = printed(print_top2, r, tasks);

	/* Threads: rd first (35 ms: 30 S, 5 D), then rd (104). */
	assert_non_null(strstr(out, "     101 rd                    100       35.000       30.000"
				    "        5.000        0.000         4\n"));
	assert_non_null(strstr(out, "     104 rd                    100        2.000        2.000"));
	/* The 30 ms stack is #1, 30/35 of its thread's time, woken by wr from pipe_write. */
	assert_non_null(strstr(out, "#1  rd (101)  S  30.000 ms in 3 episodes, 85.7% of the "
				    "thread's\n      __schedule\n      schedule\n      pipe_read\n"));
	assert_non_null(strstr(out, "    woken by wr (102): 30.000 ms, 3 times, from\n"
				    "      try_to_wake_up\n      pipe_write\n      write\n"
				    "      writer_loop\n"));
	assert_non_null(strstr(out, "#2  rd (101)  D  5.000 ms in 1 episodes, 14.3% of the "
				    "thread's\n"));
	assert_non_null(strstr(out, "    no wakeup seen\n"));
	/* Only two stacks: 104's is not listed. */
	assert_null(strstr(out, "#3"));
	free(out);
	f2t_offcpu_report_free(r);
	f2t_tasks_free(tasks);
}

static void test_interrupt_waker_cut_at_entry(void **state)
{
	struct f2t_tasks *tasks;
	struct f2t_offcpu_report *r = workload(&tasks);
	char *buf = printed(print_top3, r, tasks);

	assert_non_null(strstr(buf, "#3  rd (104)  S  2.000 ms"));
	assert_non_null(strstr(buf, "    woken in an interrupt (on other (103)'s time): 2.000 ms, "
				    "1 times, from\n      try_to_wake_up\n      hrtimer_wakeup\n"
				    "      asm_sysvec_apic_timer_interrupt\n"));
	assert_null(strstr(buf, "some_other_task_code"));
	free(buf);
	f2t_offcpu_report_free(r);
	f2t_tasks_free(tasks);
}

static void test_blocker_is_first_frame_outside_the_scheduler(void **state)
{
	const struct f2t_frame *b = f2t_offcpu_blocker(pipe_stack, N(pipe_stack));
	static const struct f2t_frame only_sched[] = { k("__schedule"), k("schedule_timeout"),
						       u("main") };

	assert_non_null(b);
	assert_string_equal(b->func, "pipe_read");
	assert_string_equal(f2t_offcpu_blocker(sync_stack, N(sync_stack))->func, "folio_wait_bit");
	/* No kernel frame outside the scheduler: none (user frames are not blockers). */
	assert_null(f2t_offcpu_blocker(only_sched, N(only_sched)));
}

static void test_other_events_are_ignored(void **state)
{
	struct f2t_offcpu_report *r = f2t_offcpu_report_new();
	struct f2t_event sw = { .kind = F2T_EV_SWITCH, .ts = 5, .pid = 7 };

	assert_int_equal(f2t_offcpu_report_add(r, &sw), 0);
	assert_int_equal(f2t_offcpu_report_thread_ns(r, 7, 0), 0);
	f2t_offcpu_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_totals_keep_states_apart),
		cmocka_unit_test(test_folded_lines),
		cmocka_unit_test(test_table_ranks_stacks_and_names_wakers),
		cmocka_unit_test(test_interrupt_waker_cut_at_entry),
		cmocka_unit_test(test_blocker_is_first_frame_outside_the_scheduler),
		cmocka_unit_test(test_other_events_are_ignored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
