// SPDX-License-Identifier: MIT
/*
 * The growable array (util/vec.h): it doubles from its first capacity,
 * keeps what it held, refuses a size whose bytes overflow and a size no
 * allocator gives, leaving the array as it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/vec.h"

struct pair {
	uint64_t a, b;
};

static void test_doubles_from_first_capacity(void **state)
{
	int *v = NULL;
	size_t n = 0, cap = 0;

	assert_int_equal(f2t_vec_reserve(&v, &cap, 1, 16), 0);
	assert_int_equal(cap, 16);
	for (int i = 0; i < 16; i++)
		v[n++] = i;
	/* Room already: nothing moves. */
	assert_int_equal(f2t_vec_reserve(&v, &cap, 16, 16), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(f2t_vec_reserve(&v, &cap, 17, 16), 0);
	assert_int_equal(cap, 32);
	/* A big need doubles as often as it takes. */
	assert_int_equal(f2t_vec_reserve(&v, &cap, 100, 16), 0);
	assert_int_equal(cap, 128);
	for (int i = 0; i < 16; i++)
		assert_int_equal(v[i], i);
	free(v);
}

static void test_push_appends_in_order(void **state)
{
	struct pair *v = NULL, *e;
	size_t n = 0, cap = 0;

	for (uint64_t i = 0; i < 10000; i++) {
		e = f2t_vec_push(&v, &n, &cap, 4);
		assert_non_null(e);
		*e = (struct pair){ i, ~i };
	}
	assert_int_equal(n, 10000);
	assert_int_equal(cap, 16384);
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(v[i].a, i);
		assert_int_equal(v[i].b, ~i);
	}
	free(v);
}

/* Elements times their size past SIZE_MAX: refused before any arithmetic wraps. */
static void test_overflowing_size_refused(void **state)
{
	struct pair *v = NULL;
	size_t n = 0, cap = 0;

	assert_int_equal(f2t_vec_reserve(&v, &cap, 3, 2), 0);
	v[n++] = (struct pair){ 7, 8 };
	assert_int_equal(f2t_vec_reserve(&v, &cap, SIZE_MAX / sizeof(*v) + 1, 2), -ENOMEM);
	assert_int_equal(f2t_vec_reserve(&v, &cap, SIZE_MAX, 2), -ENOMEM);
	assert_int_equal(cap, 4);
	assert_int_equal(v[0].a, 7);
	free(v);
}

/* A size that fits a size_t but no memory: -ENOMEM, the array kept. */
static void test_enomem_keeps_array(void **state)
{
	char *v = NULL;
	size_t n = 0, cap = 0;

	assert_non_null(f2t_vec_push(&v, &n, &cap, 8));
	v[0] = 'x';
	assert_int_equal(f2t_vec_reserve(&v, &cap, SIZE_MAX / 2, 8), -ENOMEM);
	assert_int_equal(cap, 8);
	assert_int_equal(v[0], 'x');
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubles_from_first_capacity),
		cmocka_unit_test(test_push_appends_in_order),
		cmocka_unit_test(test_overflowing_size_refused),
		cmocka_unit_test(test_enomem_keeps_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
