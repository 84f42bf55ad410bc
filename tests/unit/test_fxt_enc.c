// SPDX-License-Identifier: MIT
/*
 * FXT encoders against words worked out by hand from the spec's bit fields
 * (https://fuchsia.dev/fuchsia-src/reference/tracing/trace-format).  Each
 * expected header is derived in its comment; none was copied from the
 * program's output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>

#include <cmocka.h>

#include "fxt/fxt_enc.h"

#define SENTINEL 0xa5a5a5a5a5a5a5a5ull

static uint64_t buf[FXT_MAX_RECORD_WORDS + 8];

static int setup(void **state)
{
	for (size_t i = 0; i < sizeof(buf) / sizeof(buf[0]); i++)
		buf[i] = SENTINEL;
	return 0;
}

/* The stream at W holds exactly the bytes of S, then zeros to a word boundary. */
static void assert_stream(const uint64_t *w, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)w;
	size_t padded = (len + 7) / 8 * 8;

	assert_memory_equal(p, s, len);
	for (size_t i = len; i < padded; i++)
		assert_int_equal(p[i], 0);
}

static void test_magic(void **state)
{
	assert_int_equal(fxt_magic(buf), 1);
	assert_true(buf[0] == 0x0016547846040010ull);
	/* Little-endian bytes, as the spec spells them out. */
	assert_memory_equal(buf, "\x10\x00\x04\x46\x78\x54\x16\x00", 8);
	assert_true(buf[1] == SENTINEL);
}

static void test_metadata(void **state)
{
	/* type 0 | size 3<<4 | metadata 1<<16 | id 1<<20 | name len 12<<52 */
	assert_int_equal(fxt_provider_info(buf, 1, "ftrace2trace", 12), 3);
	assert_true(buf[0] == 0x00c0000000110030ull);
	/* "ftrace2t" read as a little-endian word, then "race" + 4 zero bytes */
	assert_true(buf[1] == 0x7432656361727466ull);
	assert_true(buf[2] == 0x0000000065636172ull);
	assert_true(buf[3] == SENTINEL);

	/* type 0 | size 1<<4 | metadata 2<<16 | id 1<<20 */
	assert_int_equal(fxt_provider_section(buf, 1), 1);
	assert_true(buf[0] == 0x0000000000120010ull);
	/* id 0xffffffff fills bits 20..51 and nothing else */
	fxt_provider_section(buf, 0xffffffffu);
	assert_true(buf[0] == 0x000ffffffff20010ull);

	/* type 0 | size 1<<4 | metadata 3<<16 | id 1<<20 | event 0<<52 */
	assert_int_equal(fxt_provider_event(buf, 1, FXT_PROVIDER_EVENT_BUFFER_FILLED), 1);
	assert_true(buf[0] == 0x0000000000130010ull);
	/* same with event 5<<52 */
	fxt_provider_event(buf, 1, 5);
	assert_true(buf[0] == 0x0050000000130010ull);
	assert_int_equal(fxt_provider_event(buf, 1, 16), -EINVAL);

	/* type 1 | size 2<<4; then 10^9 = 0x3b9aca00 */
	assert_int_equal(fxt_init(buf, 1000000000ull), 2);
	assert_true(buf[0] == 0x0000000000000021ull);
	assert_true(buf[1] == 0x000000003b9aca00ull);
}

static void test_string_record(void **state)
{
	/* type 2 | size 2<<4 | index 1<<16 | len 6<<32 */
	assert_int_equal(fxt_string(buf, 1, "ftrace", 6), 2);
	assert_true(buf[0] == 0x0000000600010022ull);
	assert_stream(&buf[1], "ftrace", 6);
	assert_true(buf[2] == SENTINEL);

	/* exactly one word of text: no padding word */
	buf[2] = SENTINEL;
	assert_int_equal(fxt_string(buf, 2, "abcdefgh", 8), 2);
	assert_true(buf[0] == 0x0000000800020022ull);
	assert_true(buf[2] == SENTINEL);

	/* type 2 | size 1<<4 | index 0x7fff<<16 | len 0 */
	assert_int_equal(fxt_string(buf, 0x7fff, "", 0), 1);
	assert_true(buf[0] == 0x000000007fff0012ull);

	assert_int_equal(fxt_string(buf, 0, "x", 1), -EINVAL);
	assert_int_equal(fxt_string(buf, 0x8000, "x", 1), -EINVAL);
	buf[0] = SENTINEL;
	assert_int_equal(fxt_string(buf, 1, (const char *)buf, FXT_MAX_STRING_LEN + 1), -E2BIG);
	assert_true(buf[0] == SENTINEL);
}

static void test_thread_record(void **state)
{
	/* type 3 | size 3<<4 | index 3<<16 */
	assert_int_equal(fxt_thread_record(buf, 3, 100, 101), 3);
	assert_true(buf[0] == 0x0000000000030033ull);
	assert_true(buf[1] == 100);
	assert_true(buf[2] == 101);
	/* index 255<<16 */
	fxt_thread_record(buf, 255, 1, 2);
	assert_true(buf[0] == 0x0000000000ff0033ull);
	assert_int_equal(fxt_thread_record(buf, 0, 1, 2), -EINVAL);
}

static void test_kernel_object(void **state)
{
	uint64_t argw[2];
	struct fxt_args args = { .words = argw, .count = 1 };

	/* koid argument: type 8 | size 2<<4 | name index 7<<16; value word */
	args.nwords = (uint16_t)fxt_arg_koid(argw, fxt_str_index(7), 1234);
	assert_int_equal(args.nwords, 2);
	assert_true(argw[0] == 0x0000000000070028ull);
	assert_true(argw[1] == 1234);

	/* type 7 | size 4<<4 | obj type 2<<16 | name 22<<24 | 1 arg<<40 */
	assert_int_equal(fxt_kernel_object(buf, FXT_OBJ_THREAD, 1235, fxt_str_index(22), &args), 4);
	assert_true(buf[0] == 0x0000010016020047ull);
	assert_true(buf[1] == 1235);
	assert_true(buf[2] == 0x0000000000070028ull);
	assert_true(buf[3] == 1234);
	assert_true(buf[4] == SENTINEL);

	/* inline name "bash": type 7 | size 3<<4 | obj type 1<<16 | ref 0x8004<<24 */
	assert_int_equal(fxt_kernel_object(buf, FXT_OBJ_PROCESS, 7, fxt_str_inline("bash", 4), NULL), 3);
	assert_true(buf[0] == 0x0000008004010037ull);
	assert_true(buf[1] == 7);
	assert_stream(&buf[2], "bash", 4);
}

static void test_userspace_object(void **state)
{
	/* type 6 | size 3<<4 | process ref 0<<16 | name 6<<24 | 0 args; ptr; pid */
	assert_int_equal(fxt_userspace_object(buf, fxt_thread_inline(77, 78), 0x1000,
					      fxt_str_index(6), NULL), 3);
	assert_true(buf[0] == 0x0000000006000036ull);
	assert_true(buf[1] == 0x1000);
	assert_true(buf[2] == 77);
	assert_true(buf[3] == SENTINEL);
}

static void test_context_switch(void **state)
{
	uint64_t argw[2];
	struct fxt_args args = { .words = argw, .nwords = 2, .count = 2 };

	/* int32 arg: type 1 | size 1<<4 | name 2<<16 | 120<<32 */
	assert_int_equal(fxt_arg_int32(argw, fxt_str_index(2), 120), 1);
	assert_true(argw[0] == 0x0000007800020011ull);
	/* type 1 | size 1<<4 | name 3<<16 | 0x80000000<<32 */
	assert_int_equal(fxt_arg_int32(argw + 1, fxt_str_index(3), INT32_MIN), 1);
	assert_true(argw[1] == 0x8000000000030011ull);

	/* type 8 | size 6<<4 | 2 args<<16 | cpu 1<<20 | state 3<<36 | subtype 1<<60 */
	assert_int_equal(fxt_context_switch(buf, 1, FXT_THREAD_BLOCKED, 1000, 10, 20, &args), 6);
	assert_true(buf[0] == 0x1000003000120068ull);
	assert_true(buf[1] == 1000);
	assert_true(buf[2] == 10);
	assert_true(buf[3] == 20);
	assert_true(buf[4] == 0x0000007800020011ull);
	assert_true(buf[5] == 0x8000000000030011ull);
	assert_true(buf[6] == SENTINEL);

	/* type 8 | size 4<<4 | 0 args | cpu 0xffff<<20 | state 5<<36 | 1<<60 */
	assert_int_equal(fxt_context_switch(buf, 0xffff, FXT_THREAD_DEAD, 1, 2, 3, NULL), 4);
	assert_true(buf[0] == 0x1000005ffff00048ull);

	args.count = 16;
	assert_int_equal(fxt_context_switch(buf, 0, 1, 1, 2, 3, &args), -E2BIG);
}

static void test_thread_wakeup(void **state)
{
	uint64_t argw[3];
	struct fxt_args args = { .words = argw, .nwords = 3, .count = 2 };

	/* int32 "weight" (index 4) = 120: type 1 | 1<<4 | 4<<16 | 120<<32 */
	fxt_arg_int32(argw, fxt_str_index(4), 120);
	assert_true(argw[0] == 0x0000007800040011ull);
	/* koid "waker" (index 5) = 7: type 8 | 2<<4 | 5<<16; 7 */
	fxt_arg_koid(argw + 1, fxt_str_index(5), 7);
	assert_true(argw[1] == 0x0000000000050028ull);

	/* type 8 | size 6<<4 | 2 args<<16 | cpu 2<<20 | subtype 2<<60 */
	assert_int_equal(fxt_thread_wakeup(buf, 2, 5, 42, &args), 6);
	assert_true(buf[0] == 0x2000000000220068ull);
	assert_true(buf[1] == 5);
	assert_true(buf[2] == 42);
	assert_true(buf[3] == 0x0000007800040011ull);
	assert_true(buf[4] == 0x0000000000050028ull);
	assert_true(buf[5] == 7);
	assert_true(buf[6] == SENTINEL);
}

static void test_legacy_context_switch(void **state)
{
	/*
	 * type 8 | size 4<<4 | cpu 3<<16 | state 3<<24 | out ref 1<<28 |
	 * in ref 0<<36 | out prio 20<<44 | in prio 30<<52 | subtype 0<<60
	 */
	assert_int_equal(fxt_legacy_context_switch(buf, 3, 3, fxt_thread_index(1),
						    fxt_thread_inline(5, 6), 20, 30, 99), 4);
	assert_true(buf[0] == 0x01e1400013030048ull);
	assert_true(buf[1] == 99);
	assert_true(buf[2] == 5);
	assert_true(buf[3] == 6);
	assert_true(buf[4] == SENTINEL);
}

static void test_instant_and_counter(void **state)
{
	struct fxt_event_head e = {
		.ts = 7,
		.thread = fxt_thread_index(1),
		.category = fxt_str_index(1),
		.name = fxt_str_inline("hi", 2),
	};
	uint64_t argw[2];
	struct fxt_args args = { .words = argw, .nwords = 2, .count = 1 };

	/* type 4 | size 3<<4 | instant 0<<16 | 0 args | thread 1<<24 | cat 1<<32 | name 0x8002<<48 */
	assert_int_equal(fxt_instant(buf, &e), 3);
	assert_true(buf[0] == 0x8002000101000034ull);
	assert_true(buf[1] == 7);
	assert_stream(&buf[2], "hi", 2);
	assert_true(buf[3] == SENTINEL);

	/* int64 arg: type 3 | size 2<<4 | name 10<<16; value -5 */
	assert_int_equal(fxt_arg_int64(argw, fxt_str_index(10), -5), 2);
	assert_true(argw[0] == 0x00000000000a0023ull);
	assert_true(argw[1] == 0xfffffffffffffffbull);

	/* type 4 | size 7<<4 | counter 1<<16 | 1 arg<<20 | thread 0 | cat 1<<32 | name 9<<48 */
	e.thread = fxt_thread_inline(1, 2);
	e.name = fxt_str_index(9);
	e.args = &args;
	assert_int_equal(fxt_counter(buf, &e, 77), 7);
	assert_true(buf[0] == 0x0009000100110074ull);
	assert_true(buf[1] == 7);
	assert_true(buf[2] == 1);
	assert_true(buf[3] == 2);
	assert_true(buf[4] == 0x00000000000a0023ull);
	assert_true(buf[5] == 0xfffffffffffffffbull);
	assert_true(buf[6] == 77);
	assert_true(buf[7] == SENTINEL);
}

static void test_other_events(void **state)
{
	struct fxt_event_head e = {
		.ts = 10,
		.thread = fxt_thread_index(2),
		.category = fxt_str_index(1),
		.name = fxt_str_index(2),
	};
	/*
	 * Common part: type 4 | thread 2<<24 = 0x2000000 | cat 1<<32 |
	 * name 2<<48 = 0x0002000102000004; plus size<<4 and event type<<16.
	 */
	assert_int_equal(fxt_duration_begin(buf, &e), 2);
	assert_true(buf[0] == 0x0002000102020024ull);	/* size 2, type 2 */
	assert_int_equal(fxt_duration_end(buf, &e), 2);
	assert_true(buf[0] == 0x0002000102030024ull);	/* size 2, type 3 */
	assert_int_equal(fxt_duration_complete(buf, &e, 20), 3);
	assert_true(buf[0] == 0x0002000102040034ull);	/* size 3, type 4 */
	assert_true(buf[2] == 20);
	assert_int_equal(fxt_async_begin(buf, &e, 5), 3);
	assert_true(buf[0] == 0x0002000102050034ull);	/* type 5 */
	assert_true(buf[2] == 5);
	assert_int_equal(fxt_async_instant(buf, &e, 5), 3);
	assert_true(buf[0] == 0x0002000102060034ull);	/* type 6 */
	assert_int_equal(fxt_async_end(buf, &e, 5), 3);
	assert_true(buf[0] == 0x0002000102070034ull);	/* type 7 */
	assert_int_equal(fxt_flow_begin(buf, &e, 6), 3);
	assert_true(buf[0] == 0x0002000102080034ull);	/* type 8 */
	assert_int_equal(fxt_flow_step(buf, &e, 6), 3);
	assert_true(buf[0] == 0x0002000102090034ull);	/* type 9 */
	assert_int_equal(fxt_flow_end(buf, &e, 6), 3);
	assert_true(buf[0] == 0x00020001020a0034ull);	/* type 10 */
	assert_true(buf[1] == 10);
	assert_true(buf[2] == 6);
}

static void test_arguments(void **state)
{
	double d = 1.5;
	uint64_t dbits;

	/* null, inline name "n": type 0 | size 2<<4 | name 0x8001<<16 */
	assert_int_equal(fxt_arg_null(buf, fxt_str_inline("n", 1)), 2);
	assert_true(buf[0] == 0x0000000080010020ull);
	assert_stream(&buf[1], "n", 1);

	/* int32 -1: type 1 | 1<<4 | 3<<16 | 0xffffffff<<32 */
	fxt_arg_int32(buf, fxt_str_index(3), -1);
	assert_true(buf[0] == 0xffffffff00030011ull);
	/* uint32: type 2 | 1<<4 | 3<<16 | 0xdeadbeef<<32 */
	assert_int_equal(fxt_arg_uint32(buf, fxt_str_index(3), 0xdeadbeefu), 1);
	assert_true(buf[0] == 0xdeadbeef00030012ull);
	/* uint64: type 4 | 2<<4 | 3<<16; value */
	assert_int_equal(fxt_arg_uint64(buf, fxt_str_index(3), 0x123456789abcdef0ull), 2);
	assert_true(buf[0] == 0x0000000000030024ull);
	assert_true(buf[1] == 0x123456789abcdef0ull);
	/* double: type 5 | 2<<4 | 3<<16; 1.5 is 0x3ff8000000000000 in IEEE 754 */
	assert_int_equal(fxt_arg_double(buf, fxt_str_index(3), d), 2);
	assert_true(buf[0] == 0x0000000000030025ull);
	memcpy(&dbits, &buf[1], 8);
	assert_true(dbits == 0x3ff8000000000000ull);
	/* string, both indexed: type 6 | 1<<4 | 3<<16 | value 4<<32 */
	assert_int_equal(fxt_arg_string(buf, fxt_str_index(3), fxt_str_index(4)), 1);
	assert_true(buf[0] == 0x0000000400030016ull);
	/* string, inline value "abc": type 6 | 2<<4 | 3<<16 | 0x8003<<32 */
	assert_int_equal(fxt_arg_string(buf, fxt_str_index(3), fxt_str_inline("abc", 3)), 2);
	assert_true(buf[0] == 0x0000800300030026ull);
	assert_stream(&buf[1], "abc", 3);
	/* both inline: type 6 | 3<<4 | 0x8001<<16 | 0x8001<<32; name stream first */
	assert_int_equal(fxt_arg_string(buf, fxt_str_inline("k", 1), fxt_str_inline("v", 1)), 3);
	assert_true(buf[0] == 0x0000800180010036ull);
	assert_stream(&buf[1], "k", 1);
	assert_stream(&buf[2], "v", 1);
	/* pointer: type 7 | 2<<4 | 3<<16 */
	assert_int_equal(fxt_arg_pointer(buf, fxt_str_index(3), 0xffff8000ull), 2);
	assert_true(buf[0] == 0x0000000000030027ull);
	assert_true(buf[1] == 0xffff8000ull);
	/* koid with inline name "process" (7 bytes): type 8 | 3<<4 | 0x8007<<16 */
	assert_int_equal(fxt_arg_koid(buf, fxt_str_inline("process", 7), 9), 3);
	assert_true(buf[0] == 0x0000000080070038ull);
	assert_stream(&buf[1], "process", 7);
	assert_true(buf[2] == 9);
	/* bool: type 9 | 1<<4 | 3<<16 | 1<<32 */
	assert_int_equal(fxt_arg_bool(buf, fxt_str_index(3), true), 1);
	assert_true(buf[0] == 0x0000000100030019ull);
	fxt_arg_bool(buf, fxt_str_index(3), false);
	assert_true(buf[0] == 0x0000000000030019ull);
	/* blob of 3 bytes: type 10 | 2<<4 | 3<<16 | size 3<<32; bytes 01 02 03 */
	assert_int_equal(fxt_arg_blob(buf, fxt_str_index(3), "\x01\x02\x03", 3), 2);
	assert_true(buf[0] == 0x000000030003002aull);
	assert_true(buf[1] == 0x0000000000030201ull);
}

static void test_blob_and_log(void **state)
{
	/* type 5 | size 2<<4 | name 5<<16 | size 5<<32 | blob type 1<<48 */
	assert_int_equal(fxt_blob(buf, fxt_str_index(5), 1, "hello", 5), 2);
	assert_true(buf[0] == 0x0001000500050025ull);
	assert_stream(&buf[1], "hello", 5);

	/* type 9 | size 3<<4 | len 3<<16 | thread 1<<32 */
	assert_int_equal(fxt_log(buf, 9, fxt_thread_index(1), "msg", 3), 3);
	assert_true(buf[0] == 0x0000000100030039ull);
	assert_true(buf[1] == 9);
	assert_stream(&buf[2], "msg", 3);
}

static void test_profiler(void **state)
{
	const uint64_t frames[3] = { 0x401000, 0x402000, 0x403000 };

	/*
	 * type 10 | size 4<<4 | subtype 0<<16 | thread 2<<20 | module 3<<28 |
	 * name len 4<<44 | build id len 2<<52
	 */
	assert_int_equal(fxt_profiler_module(buf, 1, fxt_thread_index(2), 3, "libc", 4,
					     "\xab\xcd", 2), 4);
	assert_true(buf[0] == 0x002040003020004aull);
	assert_true(buf[1] == 1);
	assert_stream(&buf[2], "libc", 4);
	assert_stream(&buf[3], "\xab\xcd", 2);

	/* type 10 | size 7<<4 | subtype 1<<16 | thread 0 | module 3<<28 | flags 5<<44 */
	assert_int_equal(fxt_profiler_mmap(buf, 1, fxt_thread_inline(10, 11), 3, 5,
					   0x400000, 0x1000, 0), 7);
	assert_true(buf[0] == 0x000050003001007aull);
	assert_true(buf[2] == 10);
	assert_true(buf[3] == 11);
	assert_true(buf[4] == 0x400000);
	assert_true(buf[5] == 0x1000);
	assert_true(buf[6] == 0);

	/* type 10 | size 5<<4 | subtype 2<<16 | thread 1<<20 | 3 frames<<28 */
	assert_int_equal(fxt_profiler_backtrace(buf, 1, fxt_thread_index(1), frames, 3), 5);
	assert_true(buf[0] == 0x000000003012005aull);
	assert_true(buf[2] == 0x401000);
	assert_true(buf[4] == 0x403000);
	assert_int_equal(fxt_profiler_backtrace(buf, 1, fxt_thread_index(1), frames, 256), -E2BIG);
}

static void test_limits(void **state)
{
	static uint64_t argw[FXT_MAX_RECORD_WORDS];
	struct fxt_args args = { .words = argw, .nwords = FXT_MAX_RECORD_WORDS - 2, .count = 1 };
	struct fxt_event_head e = { .ts = 1, .thread = fxt_thread_index(1), .args = &args };

	/* 2 + 4093 words is exactly the limit... */
	assert_int_equal(fxt_instant(buf, &e), (int)FXT_MAX_RECORD_WORDS);
	/* ...one more word is not, and nothing is written. */
	args.nwords++;
	buf[0] = SENTINEL;
	assert_int_equal(fxt_instant(buf, &e), -E2BIG);
	assert_true(buf[0] == SENTINEL);

	/* Inline strings are cut to the spec's limit, never past 15 bits. */
	assert_int_equal(fxt_str_inline("x", 40000).ref, 0x8000 | FXT_MAX_STRING_LEN);
	assert_int_equal(fxt_str_inline("", 0).ref, 0);
	assert_int_equal(fxt_str_words(fxt_str_inline("123456789", 9)), 2);
	assert_int_equal(fxt_str_words(fxt_str_index(9)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_magic, setup),
		cmocka_unit_test_setup(test_metadata, setup),
		cmocka_unit_test_setup(test_string_record, setup),
		cmocka_unit_test_setup(test_thread_record, setup),
		cmocka_unit_test_setup(test_kernel_object, setup),
		cmocka_unit_test_setup(test_userspace_object, setup),
		cmocka_unit_test_setup(test_context_switch, setup),
		cmocka_unit_test_setup(test_thread_wakeup, setup),
		cmocka_unit_test_setup(test_legacy_context_switch, setup),
		cmocka_unit_test_setup(test_instant_and_counter, setup),
		cmocka_unit_test_setup(test_other_events, setup),
		cmocka_unit_test_setup(test_arguments, setup),
		cmocka_unit_test_setup(test_blob_and_log, setup),
		cmocka_unit_test_setup(test_profiler, setup),
		cmocka_unit_test_setup(test_limits, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
