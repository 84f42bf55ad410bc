// SPDX-License-Identifier: MIT
/*
 * The grammar of ftrace text lines (source/text/text_parse.h), on lines as the
 * kernel, trace-cmd report and atrace write them: the columns found
 * whatever the task's name holds, the TGID and latency columns optional,
 * timestamps in µs or ns, trace-cmd's padding and buffer names, lost-event
 * notes; and the "key=value" fields, values with spaces included.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "source/text/text_parse.h"

static struct f2t_tline parse_ok(const char *line)
{
	struct f2t_tline t;

	assert_int_equal(f2t_tline_parse(line, strlen(line), &t), 0);
	return t;
}

static void assert_span(struct f2t_span s, const char *want)
{
	assert_int_equal(s.len, strlen(want));
	assert_memory_equal(s.s, want, s.len);
}

static void test_kernel_line_with_tgid(void **state)
{
	struct f2t_tline t = parse_ok(
		"    ftrace2trace-19919   (  19919) [001] d..2.  1848.208197: sched_switch: "
		"prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120");

	assert_int_equal(t.kind, F2T_TLINE_EVENT);
	assert_span(t.comm, "ftrace2trace");
	assert_int_equal(t.pid, 19919);
	assert_int_equal(t.tgid, 19919);
	assert_int_equal(t.cpu, 1);
	assert_span(t.flags, "d..2.");
	assert_true(t.ts == 1848208197000ull);
	assert_span(t.name, "sched_switch");
	assert_memory_equal(t.body.s, "prev_comm=a ", 12);
}

/* Dashes, spaces, brackets and digits in a task's name do not fool the columns. */
static void test_names_that_look_like_columns(void **state)
{
	struct f2t_tline t = parse_ok("  Web Content-12-34  [000] .... 5.000001: x: y=1");

	assert_span(t.comm, "Web Content-12");
	assert_int_equal(t.pid, 34);
	assert_int_equal(t.tgid, -1);
	assert_span(t.flags, "....");

	t = parse_ok("     [foo] 1-2-99     (-------) [003] ..... 1.5: cpu_idle: state=1 cpu_id=3");
	assert_span(t.comm, "[foo] 1-2");
	assert_int_equal(t.pid, 99);
	assert_int_equal(t.tgid, -1);
	assert_int_equal(t.cpu, 3);
	assert_true(t.ts == 1500000000ull);
}

/* irq-info off: no flags; trace-cmd report -t: nanoseconds. */
static void test_no_flags_and_nanoseconds(void **state)
{
	struct f2t_tline t = parse_ok("<idle>-0 [001] 10.123456789: cpu_idle: state=4294967295 cpu_id=1");

	assert_span(t.comm, "<idle>");
	assert_int_equal(t.pid, 0);
	assert_int_equal(t.flags.len, 0);
	assert_true(t.ts == 10123456789ull);
}

/* trace-cmd report: a buffer's name first, the event name padded. */
static void test_trace_cmd_report_line(void **state)
{
	struct f2t_tline t = parse_ok(
		"f2t-a:         pingpong-9149  [000]  6782.394075: sched_switch:         "
		"pingpong:9149 [120] R ==> memfd:sealed-91:12285 [120]");

	assert_span(t.comm, "pingpong");
	assert_int_equal(t.pid, 9149);
	assert_span(t.name, "sched_switch");
	assert_memory_equal(t.body.s, "pingpong:9149", 13);
}

/* The function tracer names no event: "FUNC <-PARENT". */
static void test_function_tracer_line(void **state)
{
	struct f2t_tline t = parse_ok("  bash-5 [000] d.... 3.000001: do_idle <-cpu_startup_entry");

	assert_span(t.name, "function");
	assert_span(t.body, "do_idle <-cpu_startup_entry");
}

static void test_lost_and_notes(void **state)
{
	struct f2t_tline t = parse_ok("CPU:1 [LOST 123 EVENTS]");

	assert_int_equal(t.kind, F2T_TLINE_LOST);
	assert_int_equal(t.cpu, 1);
	assert_int_equal(t.lost, 123);
	t = parse_ok("CPU:0 [EVENTS DROPPED]");
	assert_int_equal(t.kind, F2T_TLINE_LOST);
	assert_int_equal(t.lost, 0);
	t = parse_ok("f2t-test-tc-1411: CPU:0 [380 EVENTS DROPPED]");	/* trace-cmd, several buffers */
	assert_int_equal(t.kind, F2T_TLINE_LOST);
	assert_int_equal(t.lost, 380);
	assert_int_equal(parse_ok("# tracer: nop").kind, F2T_TLINE_SKIP);
	assert_int_equal(parse_ok("cpus=2").kind, F2T_TLINE_SKIP);
	assert_int_equal(parse_ok("TRACE:").kind, F2T_TLINE_SKIP);
	assert_int_equal(parse_ok("   ").kind, F2T_TLINE_SKIP);
}

static void test_lines_that_are_not_events(void **state)
{
	static const char *const bad[] = {
		"hello world",
		"foo-12 [0x1] 1.0: x: y",		/* no CPU number */
		"foo-12 [001] 1.0 x: y",		/* no ':' after the time */
		"foo [001] ..... 1.0: x: y",		/* no pid */
		"foo-12 [001] ..... abc: x: y",		/* no time */
		"foo-12 [001] too-long-flags 1.0: x",
		"-12 [001]",
	};
	struct f2t_tline t;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(f2t_tline_parse(bad[i], strlen(bad[i]), &t), -EINVAL);
}

static void test_fields(void **state)
{
	static const char b[] = "prev_comm=Web Content prev_pid=7 prev_state=R+ ==> next_comm=x y next_pid=0x1f";
	struct f2t_span body = { b, sizeof(b) - 1 }, v, k;
	long long n;

	assert_true(f2t_tline_field(body, "prev_comm", &v));
	assert_span(v, "Web Content");
	assert_true(f2t_tline_field(body, "prev_state", &v));
	assert_span(v, "R+");
	assert_true(f2t_tline_field(body, "next_comm", &v));
	assert_span(v, "x y");
	assert_true(f2t_tline_field(body, "next_pid", &v));
	assert_true(f2t_span_int(v, &n));
	assert_int_equal(n, 31);
	/* "pid" is not the end of "prev_pid" */
	assert_false(f2t_tline_field(body, "pid", &v));

	assert_true(f2t_tline_next_field(&body, &k, &v));
	assert_span(k, "prev_comm");
	assert_true(f2t_tline_next_field(&body, &k, &v));
	assert_span(k, "prev_pid");
	assert_true(f2t_tline_next_field(&body, &k, &v));
	assert_span(k, "prev_state");
	assert_true(f2t_tline_next_field(&body, &k, &v));
	assert_span(k, "next_comm");
	assert_true(f2t_tline_next_field(&body, &k, &v));
	assert_span(v, "0x1f");
	assert_false(f2t_tline_next_field(&body, &k, &v));
}

/* Fields in order, past " ==> ", give what a search of the body gives. */
static void test_fields_in_order(void **state)
{
	static const char b[] = "prev_comm=a prev_state=S ==> next_comm=b";
	static const char early[] = "next_comm=x prev_comm=a prev_state=S ==> next_comm=b";
	static const char again[] = "pid=1 ==> pid=2";
	struct f2t_fields f;
	struct f2t_span v;

	f2t_fields_init(&f, (struct f2t_span){ b, sizeof(b) - 1 });
	assert_true(f2t_fields_get(&f, "prev_comm", &v));
	assert_true(f2t_fields_get(&f, "prev_state", &v));
	assert_span(v, "S");
	assert_true(f2t_fields_get(&f, "next_comm", &v));
	assert_span(v, "b");
	/* the first next_comm, where the lookups did not start in order */
	f2t_fields_init(&f, (struct f2t_span){ early, sizeof(early) - 1 });
	assert_true(f2t_fields_get(&f, "prev_comm", &v));
	assert_true(f2t_fields_get(&f, "prev_state", &v));
	assert_true(f2t_fields_get(&f, "next_comm", &v));
	assert_span(v, "x");
	/* a key asked twice is the first one twice */
	f2t_fields_init(&f, (struct f2t_span){ again, sizeof(again) - 1 });
	assert_true(f2t_fields_get(&f, "pid", &v));
	assert_true(f2t_fields_get(&f, "pid", &v));
	assert_span(v, "1");
}

/* Numbers read in place, and the ones that are not plain digits as f2t_span_int() reads them. */
static void test_fields_int(void **state)
{
	static const char b[] = "a=12 b=-3 c=0x1f d=7x e=5 5 f=9";
	struct f2t_fields f;
	long long n;

	f2t_fields_init(&f, (struct f2t_span){ b, sizeof(b) - 1 });
	assert_true(f2t_fields_int(&f, "a", &n));
	assert_int_equal(n, 12);
	assert_true(f2t_fields_int(&f, "b", &n));
	assert_int_equal(n, -3);
	assert_true(f2t_fields_int(&f, "c", &n));
	assert_int_equal(n, 31);
	assert_false(f2t_fields_int(&f, "d", &n));
	assert_false(f2t_fields_int(&f, "e", &n));	/* "5 5": a space, then no key */
	assert_true(f2t_fields_int(&f, "f", &n));
	assert_int_equal(n, 9);
	assert_false(f2t_fields_int(&f, "g", &n));
}

/* The head of a line: its columns, and all after the timestamp as the body. */
static void test_head(void **state)
{
	static const char line[] = "  a-1  [000] .... 5.000001: x: y=1";
	struct f2t_tline t;

	assert_int_equal(f2t_tline_head(line, sizeof(line) - 1, &t), 0);
	assert_int_equal(t.kind, F2T_TLINE_EVENT);
	assert_span(t.comm, "a");
	assert_true(t.ts == 5000001000ull);
	assert_int_equal(t.name.len, 0);
	assert_span(t.body, "x: y=1");
	assert_int_equal(f2t_tline_head("x", 1, &t), -EINVAL);
}

/* One line through the cache: the same as without, and 1 when its columns came from the cache. */
static int cached(struct f2t_tline_cache *c, const char *line, struct f2t_tline *t)
{
	struct f2t_tline plain;
	int ret = f2t_tline_parse_cached(c, line, strlen(line), t), want;

	want = f2t_tline_parse(line, strlen(line), &plain);
	assert_int_equal(ret < 0 ? ret : 0, want);
	if (!want) {
		assert_int_equal(t->kind, plain.kind);
		assert_ptr_equal(t->comm.s, plain.comm.s);
		assert_int_equal(t->comm.len, plain.comm.len);
		assert_int_equal(t->pid, plain.pid);
		assert_int_equal(t->tgid, plain.tgid);
		assert_int_equal(t->cpu, plain.cpu);
		assert_true(t->ts == plain.ts);
		assert_int_equal(t->lost, plain.lost);
		assert_ptr_equal(t->body.s, plain.body.s);
	}
	return ret;
}

#define ON0 "       pingpong-24127   (  24127) [000] d..2. 32735.127343: "
#define ON1 "       pingpong-24127   (  24127) [001] d..2. 32735.127343: "

/* The columns of a line like one before come from the cache, and only then. */
static void test_cached_columns(void **state)
{
	static struct f2t_tline_cache c;
	struct f2t_tline t;

	assert_int_equal(cached(&c, ON0 "sched_waking: comm=a pid=1", &t), 0);	/* read */
	assert_int_equal(cached(&c, ON0 "sched_wakeup: comm=a pid=1", &t), 1);	/* remembered */
	assert_span(t.comm, "pingpong");
	assert_int_equal(t.pid, 24127);
	assert_int_equal(t.cpu, 0);
	assert_span(t.name, "sched_wakeup");
	/* Another CPU: other columns, read; then both are known. */
	assert_int_equal(cached(&c, ON1 "x: y=1", &t), 0);
	assert_int_equal(t.cpu, 1);
	/* ...but a task keeps one entry, its latest: CPU 0's went when CPU 1's came. */
	assert_int_equal(cached(&c, ON0 "x: y=1", &t), 0);
	assert_int_equal(cached(&c, ON0 "x: y=1", &t), 1);
	/* The same columns with a broken rest is still a bad line. */
	assert_int_equal(cached(&c, "       pingpong-24127   (  24127) [000] d..2. 3x735.1: x: y", &t), -EINVAL);
	assert_int_equal(cached(&c, "       pingpong-24127   (  24127) [000]", &t), -EINVAL);
	/* Names that start as trace-cmd's notes do are cached, but for "CPU ", whose rest decides. */
	assert_int_equal(cached(&c, "             cat-31      (     31) [000] d..2. 1.000001: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "             cat-31      (     31) [000] d..2. 1.000002: x: y=1", &t), 1);
	assert_int_equal(cached(&c, "           CPU 1-32      (     32) [000] d..2. 1.000003: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "           CPU 1-32      (     32) [000] d..2. 1.000004: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "           CPU 1-32      (     32) [000] d..2. 1.000005: x is empty", &t), 0);
	assert_int_equal(t.kind, F2T_TLINE_SKIP);
	/* ...or a lost-events note, as without the cache. */
	assert_int_equal(cached(&c, ON0 "CPU:1 [LOST 7 EVENTS]", &t), 0);
	assert_int_equal(t.kind, F2T_TLINE_LOST);
	assert_int_equal(t.lost, 7);
}

/* A task renamed and back: its old columns are read again, so the latest name is always known. */
static void test_cached_rename(void **state)
{
	static struct f2t_tline_cache c;
	struct f2t_tline t;

	assert_int_equal(cached(&c, "            a-5       (      5) [000] d..2. 1.000001: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "            a-5       (      5) [000] d..2. 1.000002: x: y=1", &t), 1);
	assert_int_equal(cached(&c, "            b-5       (      5) [000] d..2. 1.000003: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "            a-5       (      5) [000] d..2. 1.000004: x: y=1", &t), 0);
	assert_span(t.comm, "a");
	/* Another task of the same name and CPU is another entry. */
	assert_int_equal(cached(&c, "            a-6       (      5) [000] d..2. 1.000005: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "            a-5       (      5) [000] d..2. 1.000006: x: y=1", &t), 1);
	assert_int_equal(cached(&c, "            a-6       (      5) [000] d..2. 1.000007: x: y=1", &t), 1);
	assert_int_equal(t.pid, 6);
	/* A task whose pid shares its place in pid_slot with another's puts that one out too. */
	assert_int_equal(cached(&c, "            a-1029    (      5) [000] d..2. 1.000008: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "            a-5       (      5) [000] d..2. 1.000009: x: y=1", &t), 0);
	assert_int_equal(cached(&c, "            a-6       (      5) [000] d..2. 1.000010: x: y=1", &t), 1);
}

/* Timestamps through the cache: the seconds of the line before are taken again only when the same. */
static void test_cached_timestamps(void **state)
{
	static struct f2t_tline_cache c;
	static const struct {
		const char *ts;
		uint64_t ns;
	} lines[] = {
		{ "12345.000001", 12345000001000ull }, { "12345.999999", 12345999999000ull },
		{ "123456.000001", 123456000001000ull }, { "12345.5", 12345500000000ull },
		{ "1234.5", 1234500000000ull }, { "12345.123456789", 12345123456789ull },
		{ "12345678.1", 12345678100000000ull }, { "12345678.2", 12345678200000000ull },
		{ "123456789.3", 123456789300000000ull }, { "42", 42 }, { "12345.", 0 },
	};
	char line[160];
	struct f2t_tline t;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(line, sizeof(line), "       pingpong-24127   (  24127) [000] d..2. %s: x: y=1",
			 lines[i].ts);
		if (!lines[i].ns) {
			assert_int_equal(cached(&c, line, &t), -EINVAL);
			continue;
		}
		assert_true(cached(&c, line, &t) >= 0);
		assert_true(t.ts == lines[i].ns);
	}
}

static void test_numbers(void **state)
{
	long long n;

	assert_true(f2t_span_int((struct f2t_span){ "-12", 3 }, &n));
	assert_int_equal(n, -12);
	assert_false(f2t_span_int((struct f2t_span){ "12a", 3 }, &n));
	assert_false(f2t_span_int((struct f2t_span){ "", 0 }, &n));
	assert_false(f2t_span_int((struct f2t_span){ "0x", 2 }, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_line_with_tgid),
		cmocka_unit_test(test_names_that_look_like_columns),
		cmocka_unit_test(test_no_flags_and_nanoseconds),
		cmocka_unit_test(test_trace_cmd_report_line),
		cmocka_unit_test(test_function_tracer_line),
		cmocka_unit_test(test_lost_and_notes),
		cmocka_unit_test(test_lines_that_are_not_events),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_fields_in_order),
		cmocka_unit_test(test_fields_int),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_cached_columns),
		cmocka_unit_test(test_cached_rename),
		cmocka_unit_test(test_cached_timestamps),
		cmocka_unit_test(test_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
