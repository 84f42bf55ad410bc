// SPDX-License-Identifier: MIT
/* trace_marker text parsing (every form, every way to get it wrong) and the
 * per-thread slice depth table that catches unmatched ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/marker.h"
#include "model/slices.h"

static enum f2t_marker_kind parse(const char *s, struct f2t_marker *m)
{
	return f2t_marker_parse(s, strlen(s), m);
}

static void assert_view(struct f2t_marker_str v, const char *want)
{
	assert_int_equal(v.len, strlen(want));
	assert_memory_equal(v.s, want, v.len);
}

/* S parses as malformed text carrying all of S, for REASON (a substring). */
static void assert_malformed(const char *s, const char *reason)
{
	struct f2t_marker m;

	assert_int_equal(parse(s, &m), F2T_MARKER_TEXT);
	assert_true(m.malformed);
	assert_non_null(m.reason);
	if (!strstr(m.reason, reason))
		fail_msg("'%s': reason '%s', want '%s'", s, m.reason, reason);
	assert_view(m.name, s);
	assert_int_equal(m.pid, -1);
}

static void test_begin(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("B|1636|pokeUserActivity", &m), F2T_MARKER_BEGIN);
	assert_int_equal(m.pid, 1636);
	assert_view(m.name, "pokeUserActivity");
	assert_view(m.args, "");
	assert_false(m.malformed);
	assert_null(m.reason);

	assert_int_equal(parse("B|7|draw|frame=12|layer=3", &m), F2T_MARKER_BEGIN);
	assert_view(m.name, "draw");
	assert_view(m.args, "frame=12|layer=3");

	/* The kernel may keep the writer's newline; it is not part of the name. */
	assert_int_equal(parse("B|7|draw\n", &m), F2T_MARKER_BEGIN);
	assert_view(m.name, "draw");
	/* Spaces belong to the name. */
	assert_int_equal(parse("B|7| a b ", &m), F2T_MARKER_BEGIN);
	assert_view(m.name, " a b ");
}

static void test_end(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("E|1636", &m), F2T_MARKER_END);
	assert_int_equal(m.pid, 1636);
	assert_view(m.args, "");
	/* Flutter writes a bare E; some writers repeat the name. */
	assert_int_equal(parse("E", &m), F2T_MARKER_END);
	assert_int_equal(m.pid, -1);
	assert_int_equal(parse("E|", &m), F2T_MARKER_END);
	assert_int_equal(m.pid, -1);
	assert_int_equal(parse("E|12|draw", &m), F2T_MARKER_END);
	assert_int_equal(m.pid, 12);
	assert_view(m.args, "draw");
	assert_int_equal(parse("E\n", &m), F2T_MARKER_END);
}

static void test_counter(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("C|1636|wq:monitor|0", &m), F2T_MARKER_COUNTER);
	assert_int_equal(m.pid, 1636);
	assert_view(m.name, "wq:monitor");
	assert_false(m.value_is_double);
	assert_int_equal(m.ivalue, 0);

	assert_int_equal(parse("C|3209|TransfersBytesPendingOnDisk-value|-42|Blob", &m),
			 F2T_MARKER_COUNTER);
	assert_int_equal(m.ivalue, -42);
	assert_true(m.dvalue == -42.0);
	assert_view(m.args, "Blob");

	assert_int_equal(parse("C|1|n|9223372036854775807", &m), F2T_MARKER_COUNTER);
	assert_int_equal(m.ivalue, INT64_MAX);
	assert_int_equal(parse("C|1|n|-9223372036854775808", &m), F2T_MARKER_COUNTER);
	assert_true(m.ivalue == INT64_MIN);

	assert_int_equal(parse("C|1|load|0.75", &m), F2T_MARKER_COUNTER);
	assert_true(m.value_is_double);
	assert_true(m.dvalue == 0.75);
	assert_int_equal(parse("C|1|big|1.5e3", &m), F2T_MARKER_COUNTER);
	assert_true(m.dvalue == 1500.0);
	/* Past int64: still a number, as a double. */
	assert_int_equal(parse("C|1|huge|92233720368547758070", &m), F2T_MARKER_COUNTER);
	assert_true(m.value_is_double);
	assert_true(m.dvalue > 9.2e19);
}

static void test_async(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("S|1636|frame_capture|123", &m), F2T_MARKER_ASYNC_BEGIN);
	assert_int_equal(m.pid, 1636);
	assert_view(m.name, "frame_capture");
	assert_int_equal(m.cookie, 123);
	assert_int_equal(parse("F|1636|frame_capture|-456", &m), F2T_MARKER_ASYNC_END);
	assert_int_equal(m.cookie, -456);
	assert_view(m.args, "");
}

static void test_instant(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("I|4820|instant", &m), F2T_MARKER_INSTANT);
	assert_int_equal(m.pid, 4820);
	assert_view(m.name, "instant");
}

static void test_tracks(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("N|1938|track_name|instant_name", &m), F2T_MARKER_TRACK_INSTANT);
	assert_int_equal(m.pid, 1938);
	assert_view(m.track, "track_name");
	assert_view(m.name, "instant_name");

	assert_int_equal(parse("G|1339|track_name|slice_name|789", &m), F2T_MARKER_TRACK_BEGIN);
	assert_view(m.track, "track_name");
	assert_view(m.name, "slice_name");
	assert_int_equal(m.cookie, 789);

	assert_int_equal(parse("H|6890|track_name|slice_name|135", &m), F2T_MARKER_TRACK_END);
	assert_view(m.track, "track_name");
	assert_view(m.name, "slice_name");
	assert_int_equal(m.cookie, 135);
	/* Android's form leaves the name out. */
	assert_int_equal(parse("H|6890|track_name|135", &m), F2T_MARKER_TRACK_END);
	assert_view(m.name, "");
	assert_int_equal(m.cookie, 135);
}

static void test_clock_sync(void **state)
{
	struct f2t_marker m;

	assert_int_equal(parse("trace_event_clock_sync: name=app-sync_1", &m),
			 F2T_MARKER_CLOCK_SYNC);
	assert_view(m.sync_id, "app-sync_1");
	assert_false(m.has_parent_ts);
	assert_int_equal(m.pid, -1);
	assert_int_equal(parse("trace_event_clock_sync: name=x issue_ts=12\n", &m),
			 F2T_MARKER_CLOCK_SYNC);
	assert_view(m.sync_id, "x");
	assert_view(m.args, "issue_ts=12");

	assert_int_equal(parse("trace_event_clock_sync: parent_ts=1234.5678", &m),
			 F2T_MARKER_CLOCK_SYNC);
	assert_true(m.has_parent_ts);
	assert_view(m.parent_ts, "1234.5678");
	assert_int_equal(m.parent_ts_ns, 1234567800000ull);
	assert_int_equal(m.sync_id.len, 0);
	assert_int_equal(parse("trace_event_clock_sync: parent_ts=0", &m), F2T_MARKER_CLOCK_SYNC);
	assert_int_equal(m.parent_ts_ns, 0);
	/* Digits past ns are dropped, not rounded into the seconds. */
	assert_int_equal(parse("trace_event_clock_sync: parent_ts=1.9999999999", &m),
			 F2T_MARKER_CLOCK_SYNC);
	assert_int_equal(m.parent_ts_ns, 1999999999ull);

	assert_malformed("trace_event_clock_sync: name=", "without an id");
	assert_malformed("trace_event_clock_sync: name=a.b", "characters");
	assert_malformed("trace_event_clock_sync: parent_ts=abc", "seconds");
	assert_malformed("trace_event_clock_sync: parent_ts=", "seconds");
	assert_malformed("trace_event_clock_sync: parent_ts=1.2.3", "seconds");
	assert_malformed("trace_event_clock_sync: parent_ts=99999999999999999999", "seconds");
	assert_malformed("trace_event_clock_sync: hello", "name= or parent_ts=");
	assert_malformed("trace_event_clock_sync:", "name= or parent_ts=");
}

static void test_plain_text(void **state)
{
	static const char *const texts[] = {
		"hello world", "", "Bx|1|name", "b|1|name", "X|1|name", "|B|1|x",
		"trace_event_clock", "BEGIN something",
	};
	struct f2t_marker m;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_int_equal(parse(texts[i], &m), F2T_MARKER_TEXT);
		assert_false(m.malformed);
		assert_null(m.reason);
		assert_view(m.name, texts[i]);
	}
	/* The text without the trailing newline. */
	assert_int_equal(parse("hello\n\n", &m), F2T_MARKER_TEXT);
	assert_view(m.name, "hello");
}

static void test_missing_fields(void **state)
{
	assert_malformed("B", "no pid");
	assert_malformed("B|", "no pid");
	assert_malformed("B|12", "empty name");
	assert_malformed("I|12", "empty name");
	assert_malformed("C|12", "without a value");
	assert_malformed("C|12|name", "without a value");
	assert_malformed("C|12|name|", "not a number");
	assert_malformed("S|12|name", "without a cookie");
	assert_malformed("F|12", "without a cookie");
	assert_malformed("S|12|name|", "not a number");
	assert_malformed("N|12|track", "without a name");
	assert_malformed("G|12|track|name", "without a cookie");
	assert_malformed("H|12|track", "without a cookie");
	assert_malformed("H|12", "without a cookie");
}

static void test_empty_names(void **state)
{
	assert_malformed("B|12|", "empty name");
	assert_malformed("B|12||args", "empty name");
	assert_malformed("C||name|1", "no pid");
	assert_malformed("C|12||1", "empty name");
	assert_malformed("S|12||5", "empty name");
	assert_malformed("I|12|", "empty name");
	assert_malformed("N|12||name", "empty track");
	assert_malformed("N|12|track|", "empty name");
	assert_malformed("G|12|track||5", "empty name");
	assert_malformed("G|12||name|5", "empty track");
	assert_malformed("H|12||name|5", "empty track");
}

static void test_non_numeric(void **state)
{
	assert_malformed("B|abc|name", "pid is not a number");
	assert_malformed("B|-1|name", "pid is not a number");
	assert_malformed("B|+1|name", "pid is not a number");
	assert_malformed("B| 1|name", "pid is not a number");
	assert_malformed("B|2147483648|name", "pid is not a number");
	assert_malformed("B|99999999999|name", "pid is not a number");
	assert_malformed("E|x", "pid is not a number");
	assert_malformed("C|1|n|abc", "not a number");
	assert_malformed("C|1|n|nan", "not a number");
	assert_malformed("C|1|n|inf", "not a number");
	assert_malformed("C|1|n|0x10", "not a number");
	assert_malformed("C|1|n|1e", "not a number");
	assert_malformed("C|1|n|.", "not a number");
	assert_malformed("C|1|n|-", "not a number");
	assert_malformed("S|1|n|abc", "cookie is not a number");
	assert_malformed("F|1|n|1.5", "cookie is not a number");
	assert_malformed("S|1|n|9223372036854775808", "cookie is not a number");
	assert_malformed("G|1|t|n|x", "cookie is not a number");
	assert_malformed("H|1|t|n|x", "cookie is not a number");
	assert_malformed("H|1|t|x", "cookie is not a number");
}

static void test_trailing_junk(void **state)
{
	struct f2t_marker m;

	assert_malformed("B|12x|name", "pid is not a number");
	assert_malformed("C|1|n|12abc", "not a number");
	assert_malformed("C|1|n|12 ", "not a number");
	assert_malformed("C|1|n|1.5.5", "not a number");
	assert_malformed("S|1|n|5 junk", "cookie is not a number");
	/* Extra fields after a complete marker are kept, not an error. */
	assert_int_equal(parse("S|1|n|5|extra", &m), F2T_MARKER_ASYNC_BEGIN);
	assert_view(m.args, "extra");
	assert_int_equal(parse("I|1|n|extra|more", &m), F2T_MARKER_INSTANT);
	assert_view(m.name, "n");
	assert_view(m.args, "extra|more");
}

static void test_embedded_nul(void **state)
{
	static const char b[] = "B|12|na\0me|x";
	static const char c[] = "C|12|n|4\0" "2";
	static const char t[] = "\0B|1|x";
	struct f2t_marker m;

	/* Cut at the NUL, as the kernel's own text output shows it. */
	assert_int_equal(f2t_marker_parse(b, sizeof(b) - 1, &m), F2T_MARKER_BEGIN);
	assert_view(m.name, "na");
	assert_int_equal(f2t_marker_parse(c, sizeof(c) - 1, &m), F2T_MARKER_COUNTER);
	assert_int_equal(m.ivalue, 4);
	assert_int_equal(f2t_marker_parse(t, sizeof(t) - 1, &m), F2T_MARKER_TEXT);
	assert_int_equal(m.name.len, 0);
	assert_false(m.malformed);
}

static void test_huge(void **state)
{
	size_t n = 4u << 20;
	char *buf = malloc(n);
	struct f2t_marker m;

	assert_non_null(buf);
	/* A 4 MiB name, then a 4 MiB counter value, then 4 MiB of '|'. */
	memset(buf, 'a', n);
	memcpy(buf, "B|1|", 4);
	assert_int_equal(f2t_marker_parse(buf, n, &m), F2T_MARKER_BEGIN);
	assert_int_equal(m.name.len, n - 4);

	memset(buf, '7', n);
	memcpy(buf, "C|1|n|", 6);
	assert_int_equal(f2t_marker_parse(buf, n, &m), F2T_MARKER_TEXT);
	assert_true(m.malformed);

	memset(buf, '|', n);
	buf[0] = 'G';
	assert_int_equal(f2t_marker_parse(buf, n, &m), F2T_MARKER_TEXT);
	assert_true(m.malformed);
	free(buf);

	/* A length of zero never reads the buffer. */
	assert_int_equal(f2t_marker_parse(NULL, 0, &m), F2T_MARKER_TEXT);
	assert_int_equal(m.name.len, 0);
}

/* Every prefix of every valid marker parses to something, never crashes. */
static void test_every_prefix(void **state)
{
	static const char *const markers[] = {
		"B|1|a|b", "E|1", "C|1|n|-1.5e3|cat", "S|1|n|-7", "F|1|n|7", "I|1|n",
		"N|1|t|n", "G|1|t|n|5", "H|1|t|n|5",
		"trace_event_clock_sync: name=abc", "trace_event_clock_sync: parent_ts=1.5",
	};
	struct f2t_marker m;

	for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
		size_t len = strlen(markers[i]);

		for (size_t n = 0; n <= len; n++) {
			/* A heap copy of exactly N bytes, so a read past it shows under ASan. */
			char *p = malloc(n ? n : 1);

			memcpy(p, markers[i], n);
			f2t_marker_parse(p, n, &m);
			if (n == len)
				assert_int_not_equal(m.kind, F2T_MARKER_TEXT);
			if (m.kind == F2T_MARKER_TEXT)
				assert_int_equal(m.name.len, n);
			free(p);
		}
	}
}

static void test_kind_names(void **state)
{
	assert_string_equal(f2t_marker_kind_name(F2T_MARKER_BEGIN), "begin");
	assert_string_equal(f2t_marker_kind_name(F2T_MARKER_CLOCK_SYNC), "clock sync");
	for (int k = 0; k < F2T_MARKER_KIND_COUNT; k++)
		assert_non_null(f2t_marker_kind_name((enum f2t_marker_kind)k));
	assert_string_equal(f2t_marker_kind_name(F2T_MARKER_KIND_COUNT), "?");
}

static void test_slices_nesting(void **state)
{
	struct f2t_slices *s = f2t_slices_new();

	assert_non_null(s);
	assert_int_equal(f2t_slices_begin(s, 10), 1);
	assert_int_equal(f2t_slices_begin(s, 10), 2);
	assert_int_equal(f2t_slices_begin(s, 11), 1);
	assert_int_equal(f2t_slices_depth(s, 10), 2);
	assert_int_equal(f2t_slices_open(s), 3);
	assert_true(f2t_slices_end(s, 10));
	assert_true(f2t_slices_end(s, 10));
	assert_int_equal(f2t_slices_depth(s, 10), 0);
	assert_int_equal(f2t_slices_unmatched(s), 0);
	assert_int_equal(f2t_slices_open(s), 1);
	f2t_slices_free(s);
}

static void test_slices_unmatched(void **state)
{
	struct f2t_slices *s = f2t_slices_new();
	struct f2t_marker m;

	/* An E on a thread that never began anything ... */
	assert_int_equal(parse("E|5", &m), F2T_MARKER_END);
	assert_false(f2t_slices_end(s, 5));
	/* ... and one more E than B on another thread; the B on tid 6 does
	 * not close an E on tid 7 even in the same process. */
	assert_int_equal(f2t_slices_begin(s, 6), 1);
	assert_false(f2t_slices_end(s, 7));
	assert_true(f2t_slices_end(s, 6));
	assert_false(f2t_slices_end(s, 6));
	assert_int_equal(f2t_slices_unmatched(s), 3);
	assert_int_equal(f2t_slices_open(s), 0);
	assert_int_equal(f2t_slices_depth(s, 7), 0);
	/* Odd tids are fine too. */
	assert_false(f2t_slices_end(s, INT32_MIN));
	assert_int_equal(f2t_slices_begin(s, -1), 1);
	assert_true(f2t_slices_end(s, -1));
	f2t_slices_free(s);
}

struct open_sum {
	uint64_t threads, depth;
};

static int count_open(int32_t tid, uint32_t depth, void *ctx)
{
	struct open_sum *sum = ctx;

	sum->threads++;
	sum->depth += depth;
	return 0;
}

static void test_slices_many_threads(void **state)
{
	struct f2t_slices *s = f2t_slices_new();
	struct open_sum sum = { 0 };

	for (int32_t tid = 1; tid <= 100000; tid++)
		assert_int_equal(f2t_slices_begin(s, tid), 1);
	for (int32_t tid = 1; tid <= 100000; tid += 2)
		assert_true(f2t_slices_end(s, tid));
	assert_int_equal(f2t_slices_open(s), 50000);
	assert_int_equal(f2t_slices_each_open(s, count_open, &sum), 0);
	assert_int_equal(sum.threads, 50000);
	assert_int_equal(sum.depth, 50000);
	for (int32_t tid = 2; tid <= 100000; tid += 2)
		assert_int_equal(f2t_slices_depth(s, tid), 1);
	f2t_slices_free(s);
	f2t_slices_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_begin),
		cmocka_unit_test(test_end),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_async),
		cmocka_unit_test(test_instant),
		cmocka_unit_test(test_tracks),
		cmocka_unit_test(test_clock_sync),
		cmocka_unit_test(test_plain_text),
		cmocka_unit_test(test_missing_fields),
		cmocka_unit_test(test_empty_names),
		cmocka_unit_test(test_non_numeric),
		cmocka_unit_test(test_trailing_junk),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_slices_nesting),
		cmocka_unit_test(test_slices_unmatched),
		cmocka_unit_test(test_slices_many_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
