// SPDX-License-Identifier: MIT
/*
 * The FXT writer, through the reader: events in (through the pipeline, as
 * a conversion feeds them), records out, checked field by field (a round
 * trip writer -> file -> reader).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fxt/reader.h"
#include "pipeline/pipeline.h"

struct rt {
	struct f2t_tasks *tasks;
	struct f2t_recording rec;
	struct f2t_pipeline *p;
	FILE *tmp;
	unsigned char *data;
	size_t len;
	struct fxt_reader *r;
};

/* A recording of the threads in @snapshot whose ring buffer overwrote @overrun events. */
static void rt_begin(struct rt *t, const char *snapshot, uint64_t overrun)
{
	int bad = 0;

	memset(t, 0, sizeof(*t));
	t->tasks = f2t_tasks_new();
	assert_non_null(t->tasks);
	if (snapshot)
		assert_true(f2t_tasks_load_snapshot(t->tasks, snapshot, strlen(snapshot), &bad) > 0);
	t->tmp = tmpfile();
	assert_non_null(t->tmp);
	t->rec.tasks = t->tasks;
	t->rec.kernel_overrun = overrun;
	t->p = f2t_pipeline_new(&t->rec);
	assert_non_null(t->p);
	assert_int_equal(f2t_pipeline_add_out(t->p, f2t_out_fdopen(fileno(t->tmp), "test.fxt"),
					      F2T_FMT_FXT), 0);
}

static void rt_event(struct rt *t, const struct f2t_event *ev)
{
	assert_int_equal(f2t_pipeline_event(t->p, ev), 0);
}

/* Ends the file and opens a reader on what was written. */
static void rt_end(struct rt *t)
{
	long len;

	assert_int_equal(f2t_pipeline_finish(t->p, NULL), 0);
	f2t_pipeline_free(t->p);
	len = lseek(fileno(t->tmp), 0, SEEK_END);
	assert_true(len > 0 && len % 8 == 0);
	t->len = (size_t)len;
	t->data = malloc(t->len);
	assert_int_equal(pread(fileno(t->tmp), t->data, t->len, 0), (ssize_t)t->len);
	t->r = fxt_reader_new(t->data, t->len);
}

static void rt_free(struct rt *t)
{
	fxt_reader_free(t->r);
	free(t->data);
	fclose(t->tmp);
	f2t_tasks_free(t->tasks);
}

/* The next record of KIND, skipping table records and the preamble only. */
static void next_of(struct rt *t, struct fxt_record *rec, enum fxt_kind kind)
{
	int ret;

	while ((ret = fxt_reader_next(t->r, rec)) > 0) {
		if (rec->kind == kind)
			return;
		if (rec->kind != FXT_K_STRING && rec->kind != FXT_K_THREAD &&
		    rec->kind != FXT_K_MAGIC && rec->kind != FXT_K_PROVIDER_INFO &&
		    rec->kind != FXT_K_PROVIDER_SECTION && rec->kind != FXT_K_INIT)
			fail_msg("expected %s, found %s at offset %llu", fxt_kind_name(kind),
				 fxt_kind_name(rec->kind), (unsigned long long)rec->offset);
	}
	fail_msg("expected %s, found %s", fxt_kind_name(kind),
		 ret ? fxt_reader_error(t->r, NULL) : "the end");
}

static bool sv_is(const struct fxt_sv *sv, const char *s)
{
	return sv->len == strlen(s) && !memcmp(sv->s, s, sv->len);
}

static const struct fxt_arg *arg(const struct fxt_record *rec, const char *name)
{
	for (unsigned int i = 0; i < rec->nargs; i++)
		if (sv_is(&rec->args[i].name, name))
			return &rec->args[i];
	return NULL;
}

/*
 * Before the counts, the recording's identity (model/identity.h): a blob
 * of Perfetto packets (SystemInfo and the metadata) and the instant
 * "ftrace2trace_recording" with every field as an argument.
 */
static void expect_identity(struct rt *t)
{
	struct fxt_record rec;
	const struct fxt_arg *a;

	next_of(t, &rec, FXT_K_BLOB);
	next_of(t, &rec, FXT_K_INSTANT);
	assert_true(sv_is(&rec.event.name, "ftrace2trace_recording"));
	assert_int_equal(rec.nargs, 15);
	a = arg(&rec, "converter");
	assert_non_null(a);
	assert_true(sv_is(&a->str, "ftrace2trace " F2T_VERSION));
	assert_non_null(arg(&rec, "boot_id"));
	assert_non_null(arg(&rec, "cmdline"));
}

/*
 * The last records: the recording's identity, then the run's counts as
 * instant events of up to 15 arguments each, every count of the list
 * exactly once; then the end.  Returns the value of count @name.
 */
static uint64_t expect_stats_then_end(struct rt *t, const char *name)
{
	unsigned int seen[64] = { 0 };
	uint64_t value = UINT64_MAX;
	struct fxt_record rec;
	int ret;

	assert_true(f2t_stat_count <= 64);
	expect_identity(t);
	next_of(t, &rec, FXT_K_INSTANT);
	do {
		if (rec.kind == FXT_K_STRING)
			continue;	/* the next instant's argument names */
		assert_int_equal(rec.kind, FXT_K_INSTANT);
		assert_true(sv_is(&rec.event.name, "ftrace2trace_stats"));
		assert_true(rec.nargs <= 15);
		for (unsigned int i = 0; i < rec.nargs; i++) {
			size_t k;

			for (k = 0; k < f2t_stat_count; k++)
				if (sv_is(&rec.args[i].name, f2t_stat_list[k].name))
					break;
			assert_true(k < f2t_stat_count);
			assert_int_equal(rec.args[i].type, FXT_ARG_UINT64);
			seen[k]++;
			if (sv_is(&rec.args[i].name, name))
				value = rec.args[i].u64;
		}
	} while ((ret = fxt_reader_next(t->r, &rec)) > 0);
	assert_int_equal(ret, 0);
	for (size_t k = 0; k < f2t_stat_count; k++)
		assert_int_equal(seen[k], 1);
	assert_int_not_equal(value, UINT64_MAX);
	return value;
}

static struct f2t_event sw(uint64_t ts, uint32_t cpu, int32_t prev, int32_t prev_prio,
			   const char *state, int32_t next, int32_t next_prio)
{
	struct f2t_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .kind = F2T_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.prev_prio = prev_prio;
	ev.sw.next_pid = next;
	ev.sw.next_prio = next_prio;
	/* No names: the tests name tasks through the snapshot and the task table. */
	ev.sw.prev_comm = NULL;
	ev.sw.next_comm = NULL;
	strncpy(ev.sw.prev_state, state, F2T_STATE_LEN);
	return ev;
}

static void check_object(struct rt *t, uint8_t type, uint64_t koid, const char *name,
			 int64_t process)
{
	struct fxt_record rec;
	const struct fxt_arg *a;

	next_of(t, &rec, FXT_K_KERNEL_OBJECT);
	assert_int_equal(rec.kobj.obj_type, type);
	assert_int_equal(rec.kobj.koid, koid);
	if (!sv_is(&rec.kobj.name, name))
		fail_msg("object %llu named \"%.*s\", expected \"%s\"", (unsigned long long)koid,
			 (int)rec.kobj.name.len, rec.kobj.name.s, name);
	a = arg(&rec, "process");
	if (process < 0) {
		assert_null(a);
		return;
	}
	assert_non_null(a);
	assert_int_equal(a->type, FXT_ARG_KOID);
	assert_int_equal(a->koid, process);
}

static void test_preamble(void **state)
{
	struct rt t;
	struct fxt_record rec;

	rt_begin(&t, "100 100 proc\n101 100 worker\n", 0);
	rt_end(&t);
	assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_MAGIC);
	assert_int_equal(rec.offset, 0);
	assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_PROVIDER_INFO);
	assert_int_equal(rec.meta.provider_id, 1);
	assert_true(sv_is(&rec.meta.name, "ftrace2trace"));
	assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_PROVIDER_SECTION);
	assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_INIT);
	assert_int_equal(rec.ticks_per_second, 1000000000ull);
	/* The process first (named for its main thread), then its threads. */
	check_object(&t, FXT_OBJ_PROCESS, 100, "proc", -1);
	check_object(&t, FXT_OBJ_THREAD, 100, "proc", 100);
	check_object(&t, FXT_OBJ_THREAD, 101, "worker", 100);
	assert_int_equal(expect_stats_then_end(&t, "kernel_overrun"), 0);
	/* The writer's own record of what it named: the table is the tracker's alone. */
	assert_int_equal(f2t_tasks_count(t.tasks), 2);
	rt_free(&t);
}

static void test_switches(void **state)
{
	struct rt t;
	struct fxt_record rec;
	struct f2t_event ev;
	const struct fxt_arg *a;

	rt_begin(&t, "100 100 proc\n101 100 worker\n", 0);
	ev = sw(1000, 1, 101, 120, "S", 0, 120);
	rt_event(&t, &ev);
	ev = sw(1100, 0, 100, 110, "D", 101, 120);
	rt_event(&t, &ev);
	ev = sw(1200, 0, 101, 120, "R+", 100, 110);
	rt_event(&t, &ev);
	ev = sw(1300, 3, 0, 120, "R", 101, 120);
	rt_event(&t, &ev);
	rt_end(&t);

	for (int i = 0; i < 3; i++)
		next_of(&t, &rec, FXT_K_KERNEL_OBJECT);

	/* S: blocked, canonical, so exactly 48 bytes; the idle task has weight INT32_MIN. */
	next_of(&t, &rec, FXT_K_CONTEXT_SWITCH);
	assert_int_equal(rec.nwords * 8, 48);
	assert_int_equal(rec.sched.ts, 1000);
	assert_int_equal(rec.sched.cpu, 1);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_BLOCKED);
	assert_int_equal(rec.sched.out_koid, 101);
	assert_int_equal(rec.sched.in_koid, 0);
	assert_int_equal(rec.nargs, 2);
	a = arg(&rec, "outgoing_weight");
	assert_non_null(a);
	assert_int_equal(a->type, FXT_ARG_INT32);
	assert_int_equal(a->i32, 120);
	a = arg(&rec, "incoming_weight");
	assert_non_null(a);
	assert_int_equal(a->i32, INT32_MIN);
	assert_null(arg(&rec, "linux_state"));

	/* D: blocked too, but the letter is kept. */
	next_of(&t, &rec, FXT_K_CONTEXT_SWITCH);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_BLOCKED);
	assert_int_equal(rec.nwords * 8, 56);
	assert_int_equal(arg(&rec, "outgoing_weight")->i32, 110);
	a = arg(&rec, "linux_state");
	assert_non_null(a);
	assert_int_equal(a->type, FXT_ARG_STRING);
	assert_true(sv_is(&a->str, "D"));

	/* R+: preempted, running. */
	next_of(&t, &rec, FXT_K_CONTEXT_SWITCH);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_RUNNING);
	assert_int_equal(rec.nwords * 8, 48);

	/* Out of idle: outgoing weight INT32_MIN. */
	next_of(&t, &rec, FXT_K_CONTEXT_SWITCH);
	assert_int_equal(rec.sched.cpu, 3);
	assert_int_equal(rec.sched.out_koid, 0);
	assert_int_equal(arg(&rec, "outgoing_weight")->i32, INT32_MIN);
	assert_int_equal(arg(&rec, "incoming_weight")->i32, 120);
	/* pid 0 never got a kernel object record. */
	assert_int_equal(expect_stats_then_end(&t, "kernel_overrun"), 0);
	/* What the writer named is its own: pid 0, unknown to the tracker, is not in the table. */
	assert_null(f2t_tasks_find(t.tasks, 0));
	rt_free(&t);
}

static void test_wakeups(void **state)
{
	struct rt t;
	struct fxt_record rec;
	struct f2t_event ev = { .ts = 2000, .cpu = 0, .pid = 100, .kind = F2T_EV_WAKING };

	rt_begin(&t, "100 100 proc\n101 100 worker\n", 0);
	ev.wake.pid = 101;
	ev.wake.prio = 110;
	ev.wake.target_cpu = 1;
	ev.wake.comm = "worker";
	rt_event(&t, &ev);
	/* sched_wakeup repeats sched_waking: nothing is written for it. */
	ev.kind = F2T_EV_WAKEUP;
	rt_event(&t, &ev);
	/* A new task, no target cpu: the event's cpu. */
	ev.kind = F2T_EV_WAKEUP_NEW;
	ev.ts = 2100;
	ev.cpu = 1;
	ev.wake.pid = 102;
	ev.wake.target_cpu = -1;
	rt_event(&t, &ev);
	rt_end(&t);

	for (int i = 0; i < 3; i++)
		next_of(&t, &rec, FXT_K_KERNEL_OBJECT);
	next_of(&t, &rec, FXT_K_THREAD_WAKEUP);
	assert_int_equal(rec.nwords * 8, 48);
	assert_int_equal(rec.sched.ts, 2000);
	assert_int_equal(rec.sched.cpu, 1);
	assert_int_equal(rec.sched.koid, 101);
	assert_int_equal(arg(&rec, "weight")->type, FXT_ARG_INT32);
	assert_int_equal(arg(&rec, "weight")->i32, 110);
	assert_int_equal(arg(&rec, "waker")->type, FXT_ARG_KOID);
	assert_int_equal(arg(&rec, "waker")->koid, 100);

	/* The task 102, new to the table, is named (by its wakeup) before the record that uses it. */
	check_object(&t, FXT_OBJ_PROCESS, 102, "worker", -1);
	check_object(&t, FXT_OBJ_THREAD, 102, "worker", 102);
	next_of(&t, &rec, FXT_K_THREAD_WAKEUP);
	assert_int_equal(rec.sched.cpu, 1);
	assert_int_equal(rec.sched.koid, 102);
	assert_int_equal(expect_stats_then_end(&t, "kernel_overrun"), 0);
	rt_free(&t);
}

static void test_renames_are_announced(void **state)
{
	struct rt t;
	struct fxt_record rec;
	struct f2t_event ev;

	rt_begin(&t, "100 100 proc\n101 100 worker\n", 0);
	/* task_rename: a new name, a new generation in the task table. */
	ev = (struct f2t_event){ .ts = 2000, .pid = 101, .kind = F2T_EV_RENAME };
	ev.rename.pid = 101;
	ev.rename.oldcomm = "worker";
	ev.rename.newcomm = "renamed";
	rt_event(&t, &ev);
	ev.ts = 2001;
	ev.pid = ev.rename.pid = 100;
	ev.rename.oldcomm = "proc";
	ev.rename.newcomm = "newproc";
	rt_event(&t, &ev);
	ev = sw(3000, 0, 101, 120, "S", 0, 120);
	rt_event(&t, &ev);
	ev = sw(3100, 0, 0, 120, "R", 101, 120);
	rt_event(&t, &ev);
	rt_end(&t);

	for (int i = 0; i < 3; i++)
		next_of(&t, &rec, FXT_K_KERNEL_OBJECT);
	/* Before the first switch that names 101: its process, then itself. */
	check_object(&t, FXT_OBJ_PROCESS, 100, "newproc", -1);
	check_object(&t, FXT_OBJ_THREAD, 100, "newproc", 100);
	check_object(&t, FXT_OBJ_THREAD, 101, "renamed", 100);
	next_of(&t, &rec, FXT_K_CONTEXT_SWITCH);
	/* Once is enough. */
	next_of(&t, &rec, FXT_K_CONTEXT_SWITCH);
	assert_int_equal(expect_stats_then_end(&t, "kernel_overrun"), 0);
	rt_free(&t);
}

static void test_markers_and_lost(void **state)
{
	struct rt t;
	struct fxt_record rec;
	struct f2t_event ev = { .ts = 4000, .cpu = 0, .pid = 101, .kind = F2T_EV_PRINT };
	uint8_t ref;

	rt_begin(&t, "100 100 proc\n101 100 worker\n", 0);
	ev.print.buf = "hello marker";
	ev.print.len = 12;
	rt_event(&t, &ev);
	ev.kind = F2T_EV_OTHER;
	ev.ts = 4100;
	ev.other.system = "irq";
	ev.other.name = "irq_handler_entry";
	rt_event(&t, &ev);
	ev.kind = F2T_EV_LOST;
	ev.lost.count = 5;
	rt_event(&t, &ev);
	rt_end(&t);

	for (int i = 0; i < 3; i++)
		next_of(&t, &rec, FXT_K_KERNEL_OBJECT);
	next_of(&t, &rec, FXT_K_INSTANT);
	assert_int_equal(rec.event.ts, 4000);
	assert_int_not_equal(rec.event.thread.ref, 0);
	assert_int_equal(rec.event.thread.pid, 100);
	assert_int_equal(rec.event.thread.tid, 101);
	assert_true(sv_is(&rec.event.category, "marker"));
	assert_true(sv_is(&rec.event.name, "hello marker"));
	ref = rec.event.thread.ref;
	/* The same thread reuses its index: no second thread record. */
	assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_STRING);
	assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_INSTANT);
	assert_int_equal(rec.event.thread.ref, ref);
	assert_true(sv_is(&rec.event.name, "irq:irq_handler_entry"));
	next_of(&t, &rec, FXT_K_PROVIDER_EVENT);
	assert_int_equal(rec.meta.provider_id, 1);
	assert_int_equal(rec.meta.event_id, 0);
	/* Losses were already marked: the end adds no second record.  Markers are counted. */
	assert_int_equal(expect_stats_then_end(&t, "markers"), 1);
	rt_free(&t);
}

static void test_losses_only_in_stats(void **state)
{
	struct rt t;
	struct fxt_record rec;

	rt_begin(&t, NULL, 3);
	rt_end(&t);
	next_of(&t, &rec, FXT_K_MAGIC);
	for (int i = 0; i < 3; i++)
		assert_int_equal(fxt_reader_next(t.r, &rec), 1);
	next_of(&t, &rec, FXT_K_PROVIDER_EVENT);
	assert_int_equal(rec.meta.event_id, FXT_PROVIDER_EVENT_BUFFER_FILLED);
	assert_int_equal(expect_stats_then_end(&t, "kernel_overrun"), 3);
	rt_free(&t);
}

/* More distinct strings and threads than the tables hold: still a valid file. */
static void test_table_reuse(void **state)
{
	struct rt t;
	struct fxt_record rec;
	struct f2t_event ev = { .cpu = 0, .kind = F2T_EV_OTHER };
	char sys[32];
	unsigned int instants = 0;
	int ret;

	rt_begin(&t, NULL, 0);
	ev.other.name = "e";
	for (int i = 0; i < 40000; i++) {
		snprintf(sys, sizeof(sys), "sys%d", i);
		ev.ts = (uint64_t)i;
		ev.pid = 1000 + i % 300;
		ev.other.system = sys;
		rt_event(&t, &ev);
	}
	rt_end(&t);
	while ((ret = fxt_reader_next(t.r, &rec)) > 0) {
		if (rec.kind != FXT_K_INSTANT || sv_is(&rec.event.name, "ftrace2trace_stats") ||
		    sv_is(&rec.event.name, "ftrace2trace_recording"))
			continue;
		snprintf(sys, sizeof(sys), "sys%u:e", instants);
		assert_true(sv_is(&rec.event.name, sys));
		assert_int_equal(rec.event.thread.tid, 1000 + instants % 300);
		instants++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(instants, 40000);
	rt_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preamble),
		cmocka_unit_test(test_switches),
		cmocka_unit_test(test_wakeups),
		cmocka_unit_test(test_renames_are_announced),
		cmocka_unit_test(test_markers_and_lost),
		cmocka_unit_test(test_losses_only_in_stats),
		cmocka_unit_test(test_table_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
