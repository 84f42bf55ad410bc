// SPDX-License-Identifier: MIT
/*
 * The stack-frame tree: one node per (parent, function, module), shared
 * prefixes shared, ids in creation order, frames never dropped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/stacks.h"

static struct f2t_frame fr(const char *func, const char *module, uint64_t off)
{
	struct f2t_frame f = { .ip = 0x1000 + off, .func = func, .module = module, .offset = off };

	return f;
}

static void check_node(struct f2t_stacks *s, uint32_t id, const char *name, const char *cat,
		       uint32_t parent)
{
	const char *n, *c;
	uint32_t p;

	f2t_stacks_get(s, id, &n, &c, &p);
	assert_string_equal(n, name);
	assert_string_equal(c, cat);
	assert_int_equal(p, parent);
}

static void test_dedup(void **state)
{
	struct f2t_stacks *s = f2t_stacks_new();
	/* innermost first, as samples carry them */
	struct f2t_frame a[] = { fr("leaf", "/bin/x", 1), fr("mid", "/bin/x", 2),
				 fr("main", "/bin/x", 3) };
	struct f2t_frame b[] = { fr("other", "/lib/libc.so.6", 4), fr("mid", "/bin/x", 2),
				 fr("main", "/bin/x", 3) };
	int64_t la, la2, lb;

	assert_non_null(s);
	la = f2t_stacks_add(s, a, 3);
	assert_int_equal(la, 3);		/* main=1, mid=2, leaf=3 */
	check_node(s, 1, "main", "/bin/x", 0);
	check_node(s, 2, "mid", "/bin/x", 1);
	check_node(s, 3, "leaf", "/bin/x", 2);
	/* The same stack again: the same leaf, nothing new. */
	la2 = f2t_stacks_add(s, a, 3);
	assert_int_equal(la2, la);
	assert_int_equal(f2t_stacks_count(s), 3);
	/* A shared prefix shares its nodes. */
	lb = f2t_stacks_add(s, b, 3);
	assert_int_equal(lb, 4);
	check_node(s, 4, "other", "/lib/libc.so.6", 2);
	assert_int_equal(f2t_stacks_count(s), 4);
	/* A suffix of a stack is a different path: main alone is node 1. */
	assert_int_equal(f2t_stacks_add(s, &a[2], 1), 1);
	/* Many samples of known stacks: memory does not grow. */
	for (int i = 0; i < 10000; i++)
		assert_int_equal(f2t_stacks_add(s, i % 2 ? a : b, 3), i % 2 ? la : lb);
	assert_int_equal(f2t_stacks_count(s), 4);
	f2t_stacks_free(s);
}

static void test_same_name_other_module(void **state)
{
	struct f2t_stacks *s = f2t_stacks_new();
	struct f2t_frame a = fr("init", "/lib/a.so", 1), b = fr("init", "/lib/b.so", 1);

	assert_int_equal(f2t_stacks_add(s, &a, 1), 1);
	assert_int_equal(f2t_stacks_add(s, &b, 1), 2);
	assert_int_equal(f2t_stacks_node(s, 1, "x", 1, "m", 1), 3);
	assert_int_equal(f2t_stacks_node(s, 2, "x", 1, "m", 1), 4);
	assert_int_equal(f2t_stacks_node(s, 1, "x", 1, "m", 1), 3);
	f2t_stacks_free(s);
}

static void test_unknown_frames_kept(void **state)
{
	struct f2t_stacks *s = f2t_stacks_new();
	struct f2t_frame f[] = { fr(NULL, "/usr/lib/libz.so.1", 0x1234), fr(NULL, NULL, 0x42),
				 fr("main", "/bin/x", 0) };
	char buf[64];

	assert_int_equal(f2t_frame_name(&f[0], buf, sizeof(buf)), strlen("libz.so.1+0x1234"));
	assert_string_equal(buf, "libz.so.1+0x1234");
	assert_int_equal(f2t_stacks_add(s, f, 3), 3);
	check_node(s, 2, "[unknown]+0x42", "[unknown]", 1);
	check_node(s, 3, "libz.so.1+0x1234", "/usr/lib/libz.so.1", 2);
	/* A sample with no frame at all still gets a node (catapult needs one). */
	assert_int_equal(f2t_stacks_add(s, NULL, 0), 4);
	check_node(s, 4, "[unknown]", "[unknown]", 0);
	assert_int_equal(f2t_stacks_add(s, NULL, 0), 4);
	/* Names are cut, not overflowed. */
	assert_int_equal(f2t_frame_name(&f[0], buf, 5), 4);
	assert_string_equal(buf, "libz");
	f2t_stacks_free(s);
}

static void test_many_distinct(void **state)
{
	struct f2t_stacks *s = f2t_stacks_new();
	char name[32];

	/* Past several table growths, every node keeps its id. */
	for (int i = 0; i < 50000; i++) {
		int n = snprintf(name, sizeof(name), "f%d", i);

		assert_int_equal(f2t_stacks_node(s, (uint32_t)(i / 2), name, (size_t)n, "m", 1), i + 1);
	}
	for (int i = 0; i < 50000; i += 997) {
		int n = snprintf(name, sizeof(name), "f%d", i);

		assert_int_equal(f2t_stacks_node(s, (uint32_t)(i / 2), name, (size_t)n, "m", 1), i + 1);
		check_node(s, (uint32_t)i + 1, name, "m", (uint32_t)(i / 2));
	}
	f2t_stacks_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_same_name_other_module),
		cmocka_unit_test(test_unknown_frames_kept),
		cmocka_unit_test(test_many_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
