// SPDX-License-Identifier: MIT
/*
 * The FXT reader and dump: a hand-made file holding every record type,
 * decoded and printed; malformed files refused with the right offset;
 * random damage never crashes it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fxt/dump.h"
#include "fxt/reader.h"

#define MAGIC 0x0016547846040010ull
#define W8(a, b, c, d, e, f, g, h) \
	((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | \
	 (uint64_t)(e) << 32 | (uint64_t)(f) << 40 | (uint64_t)(g) << 48 | (uint64_t)(h) << 56)

/*
 * One record of every type.  Headers derived by hand from the spec; the
 * byte offset of each record is in its comment.
 */
static const uint64_t every_record[] = {
	/* 0 */ MAGIC,
	/* 8: provider info: 0 | size 2<<4 | meta 1<<16 | id 1<<20 | len 4<<52 */
	0x0040000000110020ull, W8('p', 'r', 'o', 'v', 0, 0, 0, 0),
	/* 24: initialization: 1 | size 2<<4; 1000 ticks/s */
	0x0000000000000021ull, 1000,
	/* 40: string 1 "cat": 2 | 2<<4 | index 1<<16 | len 3<<32 */
	0x0000000300010022ull, W8('c', 'a', 't', 0, 0, 0, 0, 0),
	/* 56: string 2 "name": index 2<<16 | len 4<<32 */
	0x0000000400020022ull, W8('n', 'a', 'm', 'e', 0, 0, 0, 0),
	/* 72: thread 1 = (10, 11): 3 | 3<<4 | index 1<<16 */
	0x0000000000010033ull, 10, 11,
	/*
	 * 96: instant: 4 | size 3<<4 | type 0 | 1 arg<<20 | thread 1<<24 |
	 * cat 1<<32 | name 2<<48; ts; int32 arg: 1 | 1<<4 | name 2<<16 | -7<<32
	 */
	0x0002000101100034ull, 100, 0xfffffff900020011ull,
	/*
	 * 120: counter: 4 | size 8<<4 | type 1<<16 | 1 arg<<20 | inline thread |
	 * cat 1<<32 | name inline 0x8003<<48; ts; pid; tid; "cnt";
	 * double arg: 5 | 2<<4 | name 1<<16, 2.5 = 0x4004000000000000; counter id 3
	 */
	0x8003000100110084ull, 101, 10, 12, W8('c', 'n', 't', 0, 0, 0, 0, 0),
	0x0000000000010025ull, 0x4004000000000000ull, 3,
	/* 184: duration complete: 4 | 3<<4 | type 4<<16 | thread 1<<24 | cat 1<<32 | name 2<<48 */
	0x0002000101040034ull, 5, 9,
	/*
	 * 208: kernel object: 7 | size 5<<4 | thread 2<<16 | name 2<<24 | 1 arg<<40;
	 * koid 11; koid arg: 8 | 3<<4 | inline name 0x8007<<16, "process", 10
	 */
	0x0000010002020057ull, 11, 0x0000000080070038ull,
	W8('p', 'r', 'o', 'c', 'e', 's', 's', 0), 10,
	/*
	 * 248: context switch: 8 | 6<<4 | 1 arg<<16 | cpu 1<<20 | state 3<<36 |
	 * type 1<<60; ts; out; in; string arg: 6 | 2<<4 | name 1<<16 | 0x8001<<32, "D"
	 */
	0x1000003000110068ull, 200, 11, 0, 0x0000800100010026ull, W8('D', 0, 0, 0, 0, 0, 0, 0),
	/* 296: thread wakeup: 8 | 3<<4 | cpu 0 | type 2<<60; ts; koid */
	0x2000000000000038ull, 201, 11,
	/*
	 * 320: legacy switch: 8 | 4<<4 | cpu 2<<16 | state 2<<24 | out 1<<28 |
	 * in 0<<36 | out prio 1<<44 | in prio 2<<52; ts; in pid; in tid
	 */
	0x0020100012020048ull, 202, 20, 21,
	/* 352: blob: 5 | 2<<4 | name 2<<16 | size 3<<32 | type 1<<48; "xyz" */
	0x0001000300020025ull, W8('x', 'y', 'z', 0, 0, 0, 0, 0),
	/* 368: userspace object: 6 | 2<<4 | process 1<<16 | name 1<<24; pointer */
	0x0000000001010026ull, 0xabc,
	/* 384: log: 9 | 3<<4 | len 3<<16 | thread 1<<32; ts; "hey" */
	0x0000000100030039ull, 203, W8('h', 'e', 'y', 0, 0, 0, 0, 0),
	/*
	 * 408: profiler module: 10 | 4<<4 | sub 0 | thread 1<<20 | module 7<<28 |
	 * name len 1<<44 | build id len 2<<52; ts; "m"; 01 02
	 */
	0x002010007010004aull, 204, W8('m', 0, 0, 0, 0, 0, 0, 0), W8(1, 2, 0, 0, 0, 0, 0, 0),
	/* 440: mmap: 10 | 5<<4 | sub 1<<16 | thread 1<<20 | module 7<<28 | flags 1<<44 */
	0x000010007011005aull, 205, 0x1000, 0x2000, 0x10,
	/* 480: backtrace: 10 | 4<<4 | sub 2<<16 | thread 1<<20 | 2 frames<<28 */
	0x000000002012004aull, 206, 0x1111, 0x2222,
	/*
	 * 512: large blob: 15 | size 4<<4 | large type 0<<36 | format 1<<40;
	 * format word: cat 1 | name 2<<16; size 5; "hello"
	 */
	0x000001000000004full, 0x0000000000020001ull, 5, W8('h', 'e', 'l', 'l', 'o', 0, 0, 0),
	/* 544: provider event: 0 | 1<<4 | meta 3<<16 | id 1<<20 | event 0 */
	0x0000000000130010ull,
	/* 552: record type 12, size 2 */
	0x000000000000002cull, 0xdead,
	/* 568: provider section: 0 | 1<<4 | meta 2<<16 | id 2<<20 */
	0x0000000000220010ull,
	/* 576: end */
};

static const char every_record_dump[] =
	"0 magic\n"
	"8 provider_info id=1 name=\"prov\"\n"
	"24 initialization ticks_per_second=1000\n"
	"40 string index=1 value=\"cat\"\n"
	"56 string index=2 value=\"name\"\n"
	"72 thread index=1 pid=10 tid=11\n"
	"96 instant ts=100 thread=10/11(#1) category=\"cat\" name=\"name\" args: name=int32:-7\n"
	"120 counter ts=101 thread=10/12 category=\"cat\" name=\"cnt\" counter_id=3 args: cat=double:2.5\n"
	"184 duration_complete ts=5 thread=10/11(#1) category=\"cat\" name=\"name\" end_ts=9\n"
	"208 kernel_object type=thread(2) koid=11 name=\"name\" args: process=koid:10\n"
	"248 context_switch ts=200 cpu=1 out_state=blocked(3) out=11 in=0 args: cat=string:\"D\"\n"
	"296 thread_wakeup ts=201 cpu=0 koid=11\n"
	"320 legacy_context_switch ts=202 cpu=2 out_state=suspended(2) out=10/11(#1) in=20/21 out_prio=1 in_prio=2\n"
	"352 blob name=\"name\" blob_type=1 size=3\n"
	"368 userspace_object ptr=0xabc pid=10(#1) name=\"cat\"\n"
	"384 log ts=203 thread=10/11(#1) message=\"hey\"\n"
	"408 profiler_module ts=204 thread=10/11(#1) module_id=7 name=\"m\" build_id=0102\n"
	"440 profiler_mmap ts=205 thread=10/11(#1) module_id=7 flags=1 start=0x1000 range=0x2000 vaddr=0x10\n"
	"480 profiler_backtrace ts=206 thread=10/11(#1) frames=2 [0x1111,0x2222]\n"
	"512 large_blob format=1 category=\"cat\" name=\"name\" size=5\n"
	"544 provider_event id=1 event=0(buffer_filled)\n"
	"552 unknown type=12 header=0x000000000000002c words=2 raw=[0x000000000000dead]\n"
	"568 provider_section id=2\n";

static void test_decode_fields(void **state)
{
	struct fxt_reader *r = fxt_reader_new(every_record, sizeof(every_record));
	struct fxt_record rec;

	assert_non_null(r);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_MAGIC);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_PROVIDER_INFO);
	assert_int_equal(rec.meta.provider_id, 1);
	assert_int_equal(rec.provider, 1);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_THREAD);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_INSTANT);
	assert_int_equal(rec.offset, 96);
	assert_int_equal(rec.event.thread.tid, 11);
	assert_int_equal(rec.nargs, 1);
	assert_int_equal(rec.args[0].type, FXT_ARG_INT32);
	assert_int_equal(rec.args[0].i32, -7);
	assert_int_equal(rec.args[0].offset, 112);
	assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_COUNTER);
	assert_true(rec.args[0].d == 2.5);
	assert_int_equal(rec.event.extra, 3);
	assert_int_equal(rec.used_words, rec.nwords);
	for (int i = 0; i < 3; i++)
		assert_int_equal(fxt_reader_next(r, &rec), 1);
	assert_int_equal(rec.kind, FXT_K_CONTEXT_SWITCH);
	assert_int_equal(rec.sched.cpu, 1);
	assert_int_equal(rec.sched.out_state, FXT_THREAD_BLOCKED);
	assert_int_equal(rec.sched.out_koid, 11);
	assert_int_equal(rec.nwords, 6);
	assert_int_equal(rec.args[0].str.len, 1);
	assert_memory_equal(rec.args[0].str.s, "D", 1);
	fxt_reader_free(r);
}

static char *dump_to_string(const void *data, size_t len, bool stats, int *ret)
{
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);

	assert_non_null(f);
	*ret = fxt_dump(f, "test.fxt", data, len, stats);
	fclose(f);
	return text;
}

static void test_dump_every_record(void **state)
{
	int ret;
	char *text = dump_to_string(every_record, sizeof(every_record), false, &ret);

	assert_int_equal(ret, 0);
	assert_string_equal(text, every_record_dump);
	free(text);
}

static void test_dump_stats(void **state)
{
	int ret;
	char *text = dump_to_string(every_record, sizeof(every_record), true, &ret);

	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "\nstring 2 32\n"));
	assert_non_null(strstr(text, "\ncontext_switch 1 48\n"));
	assert_non_null(strstr(text, "\nthread_wakeup 1 24\n"));
	assert_non_null(strstr(text, "\nunknown 1 16\n"));
	/* Kinds that did not occur are listed with zeros, so awk finds them. */
	assert_non_null(strstr(text, "\nflow_end 0 0\n"));
	assert_true(!strncmp(text, "magic 1 8\n", 10));
	/* 23 records, 576 bytes: the last line. */
	assert_non_null(strstr(text, "\ntotal 23 576\n"));
	assert_int_equal(text[strlen(text) - 1], '\n');
	free(text);
}

/* Reads DATA to its end and checks it fails at OFFSET with a reason containing WHY. */
static void expect_error(const uint64_t *words, size_t len, uint64_t offset, const char *why)
{
	/* An exact-size copy, so reading past the end would be caught by ASan/valgrind. */
	void *copy = malloc(len ? len : 1);
	struct fxt_reader *r;
	struct fxt_record rec;
	uint64_t off = 12345;
	const char *msg;
	int ret;

	memcpy(copy, words, len);
	r = fxt_reader_new(copy, len);
	while ((ret = fxt_reader_next(r, &rec)) > 0)
		;
	assert_int_equal(ret, -EINVAL);
	msg = fxt_reader_error(r, &off);
	assert_non_null(msg);
	if (!strstr(msg, why))
		fail_msg("reason \"%s\" does not mention \"%s\"", msg, why);
	assert_int_equal(off, offset);
	/* It stays failed. */
	assert_int_equal(fxt_reader_next(r, &rec), -EINVAL);
	fxt_reader_free(r);
	free(copy);
}

static void test_rejects_bad_starts(void **state)
{
	const uint64_t junk[] = { 0x1234 };
	const uint64_t swapped[] = { 0x1000044678541600ull };
	const uint64_t bad_magic[] = { MAGIC, 0x0011111111040010ull };

	expect_error(junk, 0, 0, "empty");
	expect_error(junk, 5, 0, "not an FXT file");
	expect_error(junk, 8, 0, "not an FXT file");
	expect_error(swapped, 8, 0, "big-endian");
	/* A second magic record (trace info type 0) must still be the magic. */
	expect_error(bad_magic, sizeof(bad_magic), 8, "bad magic");
}

static void test_rejects_bad_sizes(void **state)
{
	/* initialization says 2 words, 1 is there */
	const uint64_t cut[] = { MAGIC, 0x21 };
	/* type 1, size 0 */
	const uint64_t zero[] = { MAGIC, 0x0000000000000001ull, 0 };
	/* large record (type 15) claiming 0x10000000 words */
	const uint64_t large[] = { MAGIC, 0x000000010000000full, 0 };
	/* string of 20 bytes in a 2-word record */
	const uint64_t str[] = { MAGIC, 0x0000001400010022ull, 0x6867666564636261ull };
	/* kernel object with an inline name of 100 bytes in 2 words: name 0x8064<<24 */
	const uint64_t kobj[] = { MAGIC, 0x0000008064020027ull, 1 };
	/* large blob whose blob size word says 2^63 bytes */
	const uint64_t blob[] = { MAGIC, 0x000001000000004full, 0, 0x8000000000000000ull, 0 };
	/* a record, then 4 stray bytes */
	const uint64_t tail[] = { MAGIC, 0x21, 1000, 0x0000000000000021ull };

	expect_error(cut, sizeof(cut), 8, "runs past the end of the file");
	expect_error(zero, sizeof(zero), 8, "size 0");
	expect_error(large, sizeof(large), 8, "runs past the end of the file");
	expect_error(str, sizeof(str), 8, "too short for its string");
	expect_error(kobj, sizeof(kobj), 8, "too short");
	expect_error(blob, sizeof(blob), 8, "too short for its payload");
	expect_error(tail, 28, 24, "truncated");
}

static void test_rejects_bad_references(void **state)
{
	/* instant, inline thread, category = string index 5 never registered */
	const uint64_t str[] = { MAGIC, 0x0000000500000044ull, 1, 2, 3 };
	/* instant on thread index 3, never registered */
	const uint64_t thr[] = { MAGIC, 0x0000000003000024ull, 1 };
	/* string 1 "a" (offset 8), then an instant whose int32 arg has size 0 */
	const uint64_t arg0[] = {
		MAGIC, 0x0000000100010022ull, 'a',
		0x0000000000100054ull, 1, 2, 3, 0x0000000000010001ull,
	};
	/* same with an int64 arg (2 words) in the last word of the record */
	const uint64_t argpast[] = {
		MAGIC, 0x0000000100010022ull, 'a',
		0x0000000000100054ull, 1, 2, 3, 0x0000000000010023ull,
	};
	/* says 2 args (2<<20), holds one int32 */
	const uint64_t nargs[] = {
		MAGIC, 0x0000000100010022ull, 'a',
		0x0000000000200054ull, 1, 2, 3, 0x0000000500010011ull,
	};
	/* an argument naming string index 9 */
	const uint64_t argname[] = {
		MAGIC, 0x0000000000100054ull, 1, 2, 3, 0x0000000500090011ull,
	};

	expect_error(str, sizeof(str), 8, "string index 5");
	expect_error(thr, sizeof(thr), 8, "thread index 3");
	expect_error(arg0, sizeof(arg0), 24, "argument 1 has size 0");
	expect_error(argpast, sizeof(argpast), 24, "runs past the end of the record");
	expect_error(nargs, sizeof(nargs), 24, "2 arguments");
	expect_error(argname, sizeof(argname), 8, "string index 9");
}

static void test_tables_per_provider(void **state)
{
	/*
	 * provider info 1 "a": 0 | 2<<4 | 1<<16 | 1<<20 | len 1<<52;
	 * string 1 "x"; section 2; instant with category string 1
	 * (4 | 4<<4 | cat 1<<32, inline thread) at offset 48.
	 */
	uint64_t words[] = {
		MAGIC, 0x0010000000110020ull, 'a', 0x0000000100010022ull, 'x',
		0x0000000000220010ull,
		0x0000000100000044ull, 1, 2, 3,
	};
	struct fxt_reader *r;
	struct fxt_record rec;
	int ret;

	expect_error(words, sizeof(words), 48, "string index 1");

	/* Back in provider 1's section, index 1 is "x" again. */
	words[5] = 0x0000000000120010ull;
	r = fxt_reader_new(words, sizeof(words));
	while ((ret = fxt_reader_next(r, &rec)) > 0)
		if (rec.kind == FXT_K_INSTANT)
			assert_memory_equal(rec.event.category.s, "x", 1);
	assert_int_equal(ret, 0);
	assert_int_equal(rec.kind, FXT_K_INSTANT);
	fxt_reader_free(r);
}

static void test_ignored_index_zero(void **state)
{
	/* string index 0 and thread index 0 are to be ignored, not errors */
	const uint64_t words[] = {
		MAGIC, 0x0000000100000022ull, 'q', 0x0000000000000033ull, 1, 2,
	};
	int ret;
	char *text = dump_to_string(words, sizeof(words), false, &ret);

	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "8 string index=0 value=\"q\" (index 0: ignored)\n"));
	assert_non_null(strstr(text, "24 thread index=0 pid=1 tid=2 (index 0: ignored)\n"));
	free(text);
}

static void test_dump_prints_records_before_error(void **state)
{
	const uint64_t words[] = { MAGIC, 0x21, 1000, 0x21 };
	int ret;
	char *text = dump_to_string(words, sizeof(words), false, &ret);

	assert_int_equal(ret, -EINVAL);
	assert_string_equal(text, "0 magic\n8 initialization ticks_per_second=1000\n");
	free(text);
	/* --stats prints nothing for a broken file. */
	text = dump_to_string(words, sizeof(words), true, &ret);
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(text, "");
	free(text);
}

/* Random damage: every outcome is a record, the end, or -EINVAL; never a crash. */
static void test_fuzz(void **state)
{
	const size_t len = sizeof(every_record);
	unsigned int seed = 12345;
	unsigned int errors = 0;

	for (int iter = 0; iter < 20000; iter++) {
		size_t cut = len - (size_t)(rand_r(&seed) % 64);
		unsigned char *p = malloc(cut);
		struct fxt_reader *r;
		struct fxt_record rec;
		int ret, flips = 1 + rand_r(&seed) % 6;

		memcpy(p, every_record, cut);
		for (int i = 0; i < flips; i++) {
			size_t at = (size_t)rand_r(&seed) % cut;

			/* Headers are where damage matters: favour the low bytes of words. */
			if (rand_r(&seed) & 1)
				at &= ~(size_t)7 | 3;
			p[at] ^= (unsigned char)(1u << (rand_r(&seed) % 8));
		}
		r = fxt_reader_new(p, cut);
		while ((ret = fxt_reader_next(r, &rec)) > 0) {
			assert_true(rec.offset + rec.nwords * 8 <= cut);
			assert_true(rec.nargs <= FXT_MAX_ARGS);
		}
		assert_true(ret == 0 || ret == -EINVAL);
		errors += ret != 0;
		fxt_reader_free(r);
		free(p);
	}
	/* The damage was real: most runs must have been refused. */
	assert_true(errors > 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_fields),
		cmocka_unit_test(test_dump_every_record),
		cmocka_unit_test(test_dump_stats),
		cmocka_unit_test(test_rejects_bad_starts),
		cmocka_unit_test(test_rejects_bad_sizes),
		cmocka_unit_test(test_rejects_bad_references),
		cmocka_unit_test(test_tables_per_provider),
		cmocka_unit_test(test_ignored_index_zero),
		cmocka_unit_test(test_dump_prints_records_before_error),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
