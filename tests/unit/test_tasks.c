// SPDX-License-Identifier: MIT
/* The task table: snapshot parsing, growth, stable pointers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>

#include <cmocka.h>

#include "model/tasks.h"

static void test_snapshot_lines(void **state)
{
	struct f2t_tasks *t = f2t_tasks_new();
	const char snap[] = "1 1 systemd\n42 40 my worker thread\n7 7 kworker/0:1H-kblockd\n";
	int bad = 0;

	assert_int_equal(f2t_tasks_load_snapshot(t, snap, strlen(snap), &bad), 3);
	assert_int_equal(f2t_tasks_count(t), 3);
	assert_int_equal(f2t_tasks_find(t, 42)->tgid, 40);
	/* Names may hold spaces; they run to the end of the line. */
	assert_string_equal(f2t_tasks_find(t, 42)->comm, "my worker threa");
	assert_string_equal(f2t_tasks_find(t, 7)->comm, "kworker/0:1H-kb");
	assert_null(f2t_tasks_find(t, 8));
	f2t_tasks_free(t);
}

static void test_snapshot_rejects_junk_with_line(void **state)
{
	struct f2t_tasks *t = f2t_tasks_new();
	const char snap[] = "1 1 init\nnot a line\n";
	int bad = 0;

	assert_int_equal(f2t_tasks_load_snapshot(t, snap, strlen(snap), &bad), -EINVAL);
	assert_int_equal(bad, 2);
	f2t_tasks_free(t);
}

/* A tid beyond 32 bits is not another task's tid cut short. */
static void test_snapshot_rejects_ids_out_of_range(void **state)
{
	struct f2t_tasks *t = f2t_tasks_new();
	const char tid[] = "4294967297 1 init\n", tgid[] = "1 4294967297 init\n";
	int bad = 0;

	assert_int_equal(f2t_tasks_load_snapshot(t, tid, strlen(tid), &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(f2t_tasks_load_snapshot(t, tgid, strlen(tgid), &bad), -EINVAL);
	assert_null(f2t_tasks_find(t, 1));
	f2t_tasks_free(t);
}

/*
 * A comm as a record holds it: sixteen bytes, NUL-terminated within them,
 * and whatever the kernel left after the NUL.
 */
static void record_comm(char rec[F2T_COMM_LEN], const char *name, char after)
{
	memset(rec, after, F2T_COMM_LEN);
	memcpy(rec, name, strlen(name) + 1);
}

/* Names compared as words: what counts is the name up to its NUL, as strncmp() has it. */
static void test_comm_eq_words(void **state)
{
	struct f2t_tasks *t = f2t_tasks_new();
	struct f2t_task *task = f2t_tasks_get(t, 42);
	char rec[F2T_COMM_LEN];
	uint32_t gen;

	f2t_task_name(task, "pingpong-server", false);
	/* Renamed shorter: the longer name's bytes after the new NUL do not count. */
	record_comm(rec, "ping", '\0');
	f2t_task_name(task, rec, true);
	assert_string_equal(task->comm, "ping");
	gen = task->gen;
	/* The same name with other bytes after its NUL (a hand-made record's): no change. */
	record_comm(rec, "ping", 'x');
	assert_true(f2t_comm_eq_words(task->comm, rec));
	f2t_task_name(task, rec, true);
	assert_int_equal(task->gen, gen);
	/* A name differing in its last byte, at a word's end, or past the first word. */
	record_comm(rec, "pinh", '\0');
	assert_false(f2t_comm_eq_words(task->comm, rec));
	record_comm(rec, "pingpongserver1", '\0');
	f2t_task_name(task, rec, true);
	assert_int_equal(task->gen, gen + 1);
	record_comm(rec, "pingpongserver2", '\0');
	assert_false(f2t_comm_eq_words(task->comm, rec));
	record_comm(rec, "pingpong", '\0');
	assert_false(f2t_comm_eq_words(task->comm, rec));
	/* A sixteenth byte that is no NUL lies past what a comm holds. */
	record_comm(rec, "pingpongserver1", '\0');
	rec[F2T_COMM_LEN - 1] = 'z';
	assert_true(f2t_comm_eq_words(task->comm, rec));
	f2t_tasks_free(t);
}

static void test_growth_keeps_pointers(void **state)
{
	struct f2t_tasks *t = f2t_tasks_new();
	struct f2t_task *first = f2t_tasks_get(t, 1);

	for (int32_t tid = 2; tid <= 100000; tid++)
		assert_non_null(f2t_tasks_get(t, tid));
	assert_int_equal(f2t_tasks_count(t), 100000);
	assert_ptr_equal(f2t_tasks_find(t, 1), first);
	assert_int_equal(f2t_tasks_find(t, 99999)->tid, 99999);
	assert_string_equal(f2t_tasks_find(t, 5)->comm, "<...>");
	f2t_tasks_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_lines),
		cmocka_unit_test(test_snapshot_rejects_junk_with_line),
		cmocka_unit_test(test_snapshot_rejects_ids_out_of_range),
		cmocka_unit_test(test_growth_keeps_pointers),
		cmocka_unit_test(test_comm_eq_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
