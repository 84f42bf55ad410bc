// SPDX-License-Identifier: MIT
/*
 * The interner (util/intern.h): ids dense from 0 in the order keys first
 * come, the same id for the same bytes however often and however much the
 * interner grew since, keys told apart by every byte and by length (a
 * prefix, an embedded NUL), the copies readable as C strings.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/intern.h"

static void test_ids_dense_in_first_seen_order(void **state)
{
	struct f2t_intern in = { 0 };
	bool fresh;

	assert_int_equal(f2t_intern(&in, "b", 1, &fresh), 0);
	assert_true(fresh);
	assert_int_equal(f2t_intern(&in, "a", 1, &fresh), 1);
	assert_true(fresh);
	assert_int_equal(f2t_intern(&in, "b", 1, &fresh), 0);
	assert_false(fresh);
	assert_int_equal(f2t_intern(&in, "", 0, &fresh), 2);
	assert_true(fresh);
	assert_int_equal(in.n, 3);
	f2t_intern_fini(&in);
	assert_int_equal(in.n, 0);
}

static void test_ids_stable_through_growth(void **state)
{
	struct f2t_intern in = { 0 };
	char key[32];
	size_t len;

	for (int i = 0; i < 50000; i++) {
		snprintf(key, sizeof(key), "key %d", i);
		assert_int_equal(f2t_intern(&in, key, strlen(key), NULL), i);
	}
	for (int i = 49999; i >= 0; i--) {
		snprintf(key, sizeof(key), "key %d", i);
		assert_int_equal(f2t_intern(&in, key, strlen(key), NULL), i);
		assert_int_equal(f2t_intern_find(&in, key, strlen(key)), i);
		assert_string_equal(f2t_intern_key(&in, (size_t)i, &len), key);
		assert_int_equal(len, strlen(key));
	}
	assert_int_equal(in.n, 50000);
	f2t_intern_fini(&in);
}

static void test_keys_told_apart_by_length_and_bytes(void **state)
{
	struct f2t_intern in = { 0 };
	size_t len;

	assert_int_equal(f2t_intern(&in, "ab\0c", 4, NULL), 0);
	assert_int_equal(f2t_intern(&in, "ab", 2, NULL), 1);
	assert_int_equal(f2t_intern(&in, "ab\0d", 4, NULL), 2);
	assert_int_equal(f2t_intern_find(&in, "ab\0c", 4), 0);
	assert_memory_equal(f2t_intern_key(&in, 0, &len), "ab\0c", 5);
	assert_int_equal(len, 4);
	f2t_intern_fini(&in);
}

static void test_clear_starts_ids_again(void **state)
{
	struct f2t_intern in = { 0 };

	assert_int_equal(f2t_intern(&in, "a", 1, NULL), 0);
	assert_int_equal(f2t_intern(&in, "b", 1, NULL), 1);
	f2t_intern_clear(&in);
	assert_int_equal(in.n, 0);
	assert_int_equal(f2t_intern_find(&in, "a", 1), -ENOENT);
	assert_int_equal(f2t_intern(&in, "b", 1, NULL), 0);
	assert_int_equal(f2t_intern(&in, "a", 1, NULL), 1);
	f2t_intern_fini(&in);
}

static void test_find_adds_nothing(void **state)
{
	struct f2t_intern in = { 0 };

	assert_int_equal(f2t_intern_find(&in, "x", 1), -ENOENT);
	assert_int_equal(f2t_intern(&in, "x", 1, NULL), 0);
	assert_int_equal(f2t_intern_find(&in, "y", 1), -ENOENT);
	assert_int_equal(in.n, 1);
	f2t_intern_fini(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_dense_in_first_seen_order),
		cmocka_unit_test(test_ids_stable_through_growth),
		cmocka_unit_test(test_keys_told_apart_by_length_and_bytes),
		cmocka_unit_test(test_clear_starts_ids_again),
		cmocka_unit_test(test_find_adds_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
