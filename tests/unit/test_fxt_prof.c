// SPDX-License-Identifier: MIT
/*
 * What the FXT writer keeps of the model's profile: a callstack's frames
 * innermost first, a binary's module record once per number, a mapping's
 * mmap record once per process.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fxt/fxt_prof.h"

static void define_mapping(struct fxt_prof *p, const struct f2t_mapping_def *m)
{
	struct f2t_item it = { .kind = F2T_ITEM_MAPPING, .def.mapping = m };

	assert_int_equal(fxt_prof_define(p, &it), 0);
}

static void define_frame(struct fxt_prof *p, uint32_t id, uint32_t mapping, uint64_t pc)
{
	struct f2t_frame_def f = { .id = id, .mapping = mapping, .pc = pc };
	struct f2t_item it = { .kind = F2T_ITEM_FRAME, .def.frame = &f };

	assert_int_equal(fxt_prof_define(p, &it), 0);
}

static void define_callstack(struct fxt_prof *p, uint32_t id, uint32_t parent, uint32_t frame)
{
	struct f2t_callstack_def c = { .id = id, .parent = parent, .frame = frame };
	struct f2t_item it = { .kind = F2T_ITEM_CALLSTACK, .def.callstack = &c };

	assert_int_equal(fxt_prof_define(p, &it), 0);
}

static void test_stacks_and_records(void **state)
{
	static const uint8_t bid[] = { 0xab, 0xcd };
	const struct f2t_mapping_def libc = {
		.id = 1, .module = 7, .path = { "/lib/libc.so.6", 14 }, .build_id = bid,
		.build_id_len = 2, .start = 0x7000, .len = 0x1000, .vaddr = 0x100,
	};
	/* Another mapping of the same binary: its module record is the first's. */
	const struct f2t_mapping_def libc2 = {
		.id = 2, .module = 7, .path = { "/lib/libc.so.6", 14 }, .start = 0x9000,
		.len = 0x1000,
	};
	struct fxt_prof *p = fxt_prof_new();
	const uint8_t *b;
	const char *name;
	size_t len, blen, n;
	uint64_t pcs[4];
	uint32_t maps[4];

	assert_non_null(p);
	define_mapping(p, &libc);
	define_mapping(p, &libc2);
	define_frame(p, 1, 1, 0x7010);	/* main */
	define_frame(p, 2, 0, 0x5000);	/* JIT code: no mapping */
	define_frame(p, 3, 2, 0x9020);
	define_callstack(p, 1, 0, 1);
	define_callstack(p, 2, 1, 2);
	define_callstack(p, 3, 2, 3);
	/* Innermost first, cut to the room given. */
	n = fxt_prof_stack(p, 3, pcs, maps, 4);
	assert_int_equal(n, 3);
	assert_int_equal(pcs[0], 0x9020);
	assert_int_equal(maps[0], 2);
	assert_int_equal(pcs[1], 0x5000);
	assert_int_equal(maps[1], 0);
	assert_int_equal(pcs[2], 0x7010);
	assert_int_equal(fxt_prof_stack(p, 3, pcs, maps, 2), 2);
	assert_int_equal(fxt_prof_stack(p, 0, pcs, maps, 4), 0);
	assert_int_equal(fxt_prof_mapping(p, 1)->vaddr, 0x100);
	assert_int_equal(fxt_prof_mapping(p, 2)->start, 0x9000);
	/* A binary's module record once, whichever of its mappings needs it first. */
	assert_int_equal(fxt_prof_first_module(p, 2, &name, &len, &b, &blen), 1);
	assert_string_equal(name, "/lib/libc.so.6");
	assert_int_equal(len, 14);
	assert_int_equal(blen, 0);
	assert_int_equal(fxt_prof_first_module(p, 1, &name, &len, &b, &blen), 0);
	/* A mapping's mmap record once per process. */
	assert_int_equal(fxt_prof_first_mmap(p, 42, 1), 1);
	assert_int_equal(fxt_prof_first_mmap(p, 42, 1), 0);
	assert_int_equal(fxt_prof_first_mmap(p, 43, 1), 1);
	assert_int_equal(fxt_prof_first_mmap(p, 42, 2), 1);
	fxt_prof_free(p);
}

static void test_build_id(void **state)
{
	static const uint8_t bid[] = { 1, 2, 3 };
	const struct f2t_mapping_def k = {
		.id = 1, .module = 1, .path = { "[kernel.kallsyms]", 17 }, .build_id = bid,
		.build_id_len = 3,
	};
	struct fxt_prof *p = fxt_prof_new();
	const uint8_t *b;
	const char *name;
	size_t len, blen;

	define_mapping(p, &k);
	assert_int_equal(fxt_prof_first_module(p, 1, &name, &len, &b, &blen), 1);
	assert_int_equal(blen, 3);
	assert_memory_equal(b, bid, 3);
	fxt_prof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stacks_and_records),
		cmocka_unit_test(test_build_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
