// SPDX-License-Identifier: MIT
/*
 * The hash table (util/hash.h) and what is built on it (util/idmap.h,
 * util/strset.h): values found by key through growth, colliding hashes
 * told apart by the caller's key, removal that keeps every other value of
 * a probe run reachable, entries in insertion order.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hash.h"
#include "util/idmap.h"
#include "util/strset.h"

/* Values are keys + 1 (0 means empty); the key is the value's own number. */
static bool same(uintptr_t val, const void *key)
{
	return val - 1 == *(const uint64_t *)key;
}

static uintptr_t find(const struct f2t_hash *t, uint64_t h, uint64_t key)
{
	return f2t_hash_slot(t, h, same, &key)->val;
}

static void add(struct f2t_hash *t, uint64_t h, uint64_t key)
{
	assert_int_equal(find(t, h, key), 0);
	assert_int_equal(f2t_hash_reserve(t), 0);
	f2t_hash_put(t, f2t_hash_slot(t, h, same, &key), h, key + 1);
}

static void test_growth_keeps_every_value(void **state)
{
	struct f2t_hash t;

	assert_int_equal(f2t_hash_init(&t, 4), 0);
	for (uint64_t k = 0; k < 100000; k++)
		add(&t, f2t_hash_u64(k), k);
	assert_int_equal(t.used, 100000);
	/* Never more than half full. */
	assert_true(t.used * 2 <= t.mask + 1);
	for (uint64_t k = 0; k < 100000; k++)
		assert_int_equal(find(&t, f2t_hash_u64(k), k), k + 1);
	assert_int_equal(find(&t, f2t_hash_u64(100000), 100000), 0);
	f2t_hash_fini(&t);
}

/* Every key hashes alike: only the caller's comparison tells them apart. */
static void test_collisions_told_apart_by_key(void **state)
{
	struct f2t_hash t;

	assert_int_equal(f2t_hash_init(&t, 16), 0);
	for (uint64_t k = 0; k < 20; k++)
		add(&t, 42, k);
	for (uint64_t k = 0; k < 20; k++)
		assert_int_equal(find(&t, 42, k), k + 1);
	f2t_hash_fini(&t);
}

static void test_removal_keeps_the_rest_reachable(void **state)
{
	struct f2t_hash t;

	assert_int_equal(f2t_hash_init(&t, 16), 0);
	/* Runs that wrap around the end of the table, and interleave. */
	for (uint64_t k = 0; k < 12; k++)
		add(&t, t.mask - 2 + (k % 3), k);
	for (uint64_t k = 0; k < 12; k += 2) {
		uint64_t key = k;

		f2t_hash_remove(&t, f2t_hash_slot(&t, t.mask - 2 + (k % 3), same, &key));
		/* Removed so far: the even keys up to k.  Everything else is still found. */
		for (uint64_t j = 0; j < 12; j++)
			assert_int_equal(find(&t, t.mask - 2 + (j % 3), j),
					 j % 2 == 0 && j <= k ? 0 : j + 1);
	}
	assert_int_equal(t.used, 6);
	f2t_hash_fini(&t);
}

static void test_bytes_hash_spreads(void **state)
{
	/* Short keys differing in one byte land in different low bits (what indexes). */
	assert_int_not_equal(f2t_hash_bytes("a", 1) & 0xff, f2t_hash_bytes("b", 1) & 0xff);
	assert_int_equal(f2t_hash_bytes("abc", 3), f2t_hash_bytes("abcd", 3));
	assert_int_not_equal(f2t_hash_bytes("", 0), f2t_hash_bytes("\0", 1));
}

struct thing {
	uint64_t n;
	char tag[8];
};

static void test_idmap(void **state)
{
	struct f2t_idmap m;
	struct thing *e;
	bool fresh;
	int64_t key;

	assert_int_equal(f2t_idmap_init(&m, sizeof(struct thing)), 0);
	assert_null(f2t_idmap_find(&m, 7));
	for (int64_t k = -500; k < 500; k++) {
		e = f2t_idmap_get(&m, k * 7919, &fresh);
		assert_non_null(e);
		assert_true(fresh);
		assert_int_equal(e->n, 0);	/* new entries are zeroed */
		e->n = (uint64_t)(k + 500);
	}
	e = f2t_idmap_get(&m, 7919, &fresh);
	assert_false(fresh);
	assert_int_equal(e->n, 501);
	assert_int_equal(((struct thing *)f2t_idmap_find(&m, -500 * 7919))->n, 0);
	/* In the order they were added. */
	for (size_t i = 0; i < m.n; i++) {
		e = f2t_idmap_at(&m, i, &key);
		assert_int_equal(e->n, i);
		assert_int_equal(key, ((int64_t)i - 500) * 7919);
	}
	f2t_idmap_fini(&m);
}

static void test_strset(void **state)
{
	struct f2t_strset set = { 0 };
	char s[16];

	assert_int_equal(f2t_strset_has(&set, "x", 1), 0);
	for (int i = 0; i < 1000; i++) {
		int n = snprintf(s, sizeof(s), "id-%d", i);

		assert_int_equal(f2t_strset_add(&set, s, (size_t)n), 1);
	}
	assert_int_equal(f2t_strset_add(&set, "id-7", 4), 0);
	assert_int_equal(f2t_strset_has(&set, "id-999", 6), 1);
	assert_int_equal(f2t_strset_has(&set, "id-99", 4), 1);	/* its first 4 bytes: "id-9" */
	assert_int_equal(f2t_strset_has(&set, "id-1000", 7), 0);
	/* Bytes, not C strings: an embedded NUL counts. */
	assert_int_equal(f2t_strset_add(&set, "a\0b", 3), 1);
	assert_int_equal(f2t_strset_has(&set, "a", 1), 0);
	f2t_strset_fini(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_growth_keeps_every_value),
		cmocka_unit_test(test_collisions_told_apart_by_key),
		cmocka_unit_test(test_removal_keeps_the_rest_reachable),
		cmocka_unit_test(test_bytes_hash_spreads),
		cmocka_unit_test(test_idmap),
		cmocka_unit_test(test_strset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
