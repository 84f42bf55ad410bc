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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
