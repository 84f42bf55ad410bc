// SPDX-License-Identifier: MIT
/* FXT writer tables: content -> index, reuse of the least recently used index. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fxt/fxt_enc.h"
#include "fxt/fxt_tables.h"

static int intern(struct fxt_strtab *t, const char *s, bool *fresh)
{
	return fxt_strtab_intern(t, s, strlen(s), fresh);
}

static void test_strtab_basic(void **state)
{
	struct fxt_strtab *t = fxt_strtab_new(16, FXT_MAX_STRING_INDEX);
	bool fresh;

	assert_non_null(t);
	assert_int_equal(intern(t, "sched", &fresh), 16);
	assert_true(fresh);
	assert_int_equal(intern(t, "switch", &fresh), 17);
	assert_true(fresh);
	assert_int_equal(intern(t, "sched", &fresh), 16);
	assert_false(fresh);
	/* Content, not pointers, and every byte of it: NULs included. */
	assert_int_equal(fxt_strtab_intern(t, "a\0b", 3, &fresh), 18);
	assert_int_equal(fxt_strtab_intern(t, "a\0c", 3, &fresh), 19);
	assert_true(fresh);
	assert_int_equal(fxt_strtab_intern(t, "a", 1, &fresh), 20);
	assert_int_equal(fxt_strtab_intern(t, "a\0b", 3, &fresh), 18);
	assert_false(fresh);
	assert_int_equal(fxt_strtab_count(t), 5);
	assert_int_equal(fxt_strtab_evictions(t), 0);

	assert_int_equal(fxt_strtab_intern(t, "", 0, &fresh), -EINVAL);
	assert_false(fresh);
	assert_int_equal(fxt_strtab_intern(t, "x", FXT_MAX_STRING_LEN + 1, &fresh), -E2BIG);
	fxt_strtab_free(t);
}

static void test_strtab_bad_ranges(void **state)
{
	assert_null(fxt_strtab_new(0, 10));
	assert_null(fxt_strtab_new(1, 0x8000));
	assert_null(fxt_strtab_new(10, 9));
	assert_null(fxt_thrtab_new(0, 10));
	assert_null(fxt_thrtab_new(10, 9));
}

static void test_strtab_lru_eviction(void **state)
{
	struct fxt_strtab *t = fxt_strtab_new(1, 3);
	bool fresh;

	assert_int_equal(intern(t, "a", &fresh), 1);
	assert_int_equal(intern(t, "b", &fresh), 2);
	assert_int_equal(intern(t, "c", &fresh), 3);
	/* Use "a" again: now "b" is the least recently used. */
	assert_int_equal(intern(t, "a", &fresh), 1);
	assert_false(fresh);
	/* Full: "d" takes b's index, and the caller must write a string record. */
	assert_int_equal(intern(t, "d", &fresh), 2);
	assert_true(fresh);
	assert_int_equal(fxt_strtab_evictions(t), 1);
	/* "b" is gone; it comes back in c's index (c is now the oldest). */
	assert_int_equal(intern(t, "b", &fresh), 3);
	assert_true(fresh);
	/* "a" and "d" stayed where they were. */
	assert_int_equal(intern(t, "a", &fresh), 1);
	assert_false(fresh);
	assert_int_equal(intern(t, "d", &fresh), 2);
	assert_false(fresh);
	/* Oldest now: b (3). */
	assert_int_equal(intern(t, "c", &fresh), 3);
	assert_true(fresh);
	assert_int_equal(fxt_strtab_count(t), 3);
	assert_int_equal(fxt_strtab_evictions(t), 3);
	fxt_strtab_free(t);
}

static void test_strtab_full_size(void **state)
{
	const unsigned int first = 16, n = FXT_MAX_STRING_INDEX - 16 + 1, total = 100000;
	struct fxt_strtab *t = fxt_strtab_new(first, FXT_MAX_STRING_INDEX);
	uint8_t *seen = calloc(FXT_MAX_STRING_INDEX + 1, 1);
	char s[32];
	bool fresh;

	for (unsigned int i = 0; i < total; i++) {
		int idx;

		snprintf(s, sizeof(s), "string-%u", i);
		idx = intern(t, s, &fresh);
		assert_true(fresh);
		assert_in_range(idx, first, FXT_MAX_STRING_INDEX);
	}
	assert_int_equal(fxt_strtab_count(t), n);
	assert_int_equal(fxt_strtab_evictions(t), total - n);
	/* The most recent n strings are all still there, each at its own index. */
	for (unsigned int i = total - n; i < total; i++) {
		int idx;

		snprintf(s, sizeof(s), "string-%u", i);
		idx = intern(t, s, &fresh);
		assert_false(fresh);
		assert_int_equal(seen[idx], 0);
		seen[idx] = 1;
	}
	/* An old one is not, and costs one eviction. */
	assert_int_not_equal(intern(t, "string-0", &fresh), -1);
	assert_true(fresh);
	free(seen);
	fxt_strtab_free(t);
}

static void test_thrtab(void **state)
{
	struct fxt_thrtab *t = fxt_thrtab_new(1, FXT_MAX_THREAD_INDEX);
	bool fresh;

	assert_int_equal(fxt_thrtab_intern(t, 1, 2, &fresh), 1);
	assert_true(fresh);
	assert_int_equal(fxt_thrtab_intern(t, 2, 1, &fresh), 2);
	assert_true(fresh);
	assert_int_equal(fxt_thrtab_intern(t, 1, 2, &fresh), 1);
	assert_false(fresh);
	/* Fill it with 1000 threads: indices stay within 1..255, never 0. */
	for (uint64_t i = 0; i < 1000; i++) {
		int idx = fxt_thrtab_intern(t, 100, 1000 + i, &fresh);

		assert_true(fresh);
		assert_in_range(idx, 1, 255);
	}
	assert_int_equal(fxt_thrtab_evictions(t), 1002 - 255);
	/* The last 255 are the ones kept. */
	for (uint64_t i = 1000 - 255; i < 1000; i++) {
		fxt_thrtab_intern(t, 100, 1000 + i, &fresh);
		assert_false(fresh);
	}
	fxt_thrtab_intern(t, 1, 2, &fresh);
	assert_true(fresh);
	fxt_thrtab_free(t);
}

static void test_thrtab_lru(void **state)
{
	struct fxt_thrtab *t = fxt_thrtab_new(5, 6);
	bool fresh;

	assert_int_equal(fxt_thrtab_intern(t, 1, 1, &fresh), 5);
	assert_int_equal(fxt_thrtab_intern(t, 1, 2, &fresh), 6);
	assert_int_equal(fxt_thrtab_intern(t, 1, 1, &fresh), 5);
	/* (1,2) is the least recently used. */
	assert_int_equal(fxt_thrtab_intern(t, 1, 3, &fresh), 6);
	assert_true(fresh);
	assert_int_equal(fxt_thrtab_intern(t, 1, 1, &fresh), 5);
	assert_false(fresh);
	assert_int_equal(fxt_thrtab_evictions(t), 1);
	fxt_thrtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strtab_basic),
		cmocka_unit_test(test_strtab_bad_ranges),
		cmocka_unit_test(test_strtab_lru_eviction),
		cmocka_unit_test(test_strtab_full_size),
		cmocka_unit_test(test_thrtab),
		cmocka_unit_test(test_thrtab_lru),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
