// SPDX-License-Identifier: MIT
/*
 * Markers to records: the decisions of model/marker_track.c (nesting,
 * unmatched ends, async pairing, clock sync ids, malformed text, what the
 * print event stands for in Perfetto and ftrace text), then what the JSON,
 * FXT and systrace writers make of them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "fxt/reader.h"
#include "model/marker_track.h"
#include "pipeline/pipeline.h"

static struct f2t_event print_ev(uint64_t ts, int32_t tid, const char *text)
{
	struct f2t_event ev = { .ts = ts, .pid = tid, .kind = F2T_EV_PRINT };

	ev.print.buf = text;
	ev.print.len = strlen(text);
	return ev;
}

/* Feeds TEXT from TID (process TGID) and returns the decision. */
static enum f2t_mrec feed(struct f2t_mtrack *t, uint64_t ts, int32_t tid, int32_t tgid,
			  const char *text, struct f2t_mrecord *r)
{
	struct f2t_event ev = print_ev(ts, tid, text);

	assert_int_equal(f2t_mtrack_event(t, &ev, tgid, r), 0);
	return r->rec;
}

static bool is(struct f2t_marker_str v, const char *s)
{
	return v.len == strlen(s) && !memcmp(v.s, s, v.len);
}

static void test_nesting_and_unmatched_ends(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;
	struct f2t_mcounts c;

	assert_non_null(t);
	/* An E before any B (its B came before the recording): dropped. */
	assert_int_equal(feed(t, 1, 11, 10, "E|10", &r), F2T_MREC_NONE);
	assert_int_equal(feed(t, 2, 11, 10, "B|10|outer|k=v", &r), F2T_MREC_BEGIN);
	assert_true(is(r.name, "outer"));
	assert_true(is(r.category, "marker"));
	assert_true(is(r.m.args, "k=v"));
	assert_int_equal(r.tid, 11);
	assert_int_equal(r.tgid, 10);
	assert_int_equal(feed(t, 3, 11, 10, "B|10|inner", &r), F2T_MREC_BEGIN);
	/* Another thread's E does not close this thread's slices. */
	assert_int_equal(feed(t, 4, 12, 10, "E|10", &r), F2T_MREC_NONE);
	assert_int_equal(feed(t, 5, 11, 10, "E|10", &r), F2T_MREC_END);
	/* Flutter's bare "E" too. */
	assert_int_equal(feed(t, 6, 11, 10, "E", &r), F2T_MREC_END);
	assert_int_equal(feed(t, 7, 11, 10, "E|10", &r), F2T_MREC_NONE);
	assert_int_equal(feed(t, 8, 11, 10, "B|10|left open", &r), F2T_MREC_BEGIN);
	f2t_mtrack_counts(t, &c);
	assert_int_equal(c.markers, 8);
	assert_int_equal(c.kinds[F2T_MARKER_BEGIN], 3);
	assert_int_equal(c.kinds[F2T_MARKER_END], 5);
	assert_int_equal(c.unmatched_ends, 3);
	assert_int_equal(c.open_slices, 1);
	assert_int_equal(c.malformed, 0);
	f2t_mtrack_free(t);
}

static void test_thread_and_process(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;

	/* The pid in the text is not trusted; the task table's is. */
	feed(t, 1, 21, 20, "I|999|x", &r);
	assert_int_equal(r.tid, 21);
	assert_int_equal(r.tgid, 20);
	assert_int_equal(r.m.pid, 999);
	/* Unknown process: the thread is its own. */
	feed(t, 2, 22, 0, "I|999|x", &r);
	assert_int_equal(r.tgid, 22);
	f2t_mtrack_free(t);
}

static void test_counters(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;
	struct f2t_mcounts c;

	assert_int_equal(feed(t, 1, 5, 5, "C|5|queue|-42", &r), F2T_MREC_COUNTER);
	assert_true(is(r.name, "queue"));
	assert_false(r.m.value_is_double);
	assert_int_equal(r.m.ivalue, -42);
	assert_true(is(r.category, "marker"));
	assert_int_equal(feed(t, 2, 5, 5, "C|5|load|0.25|sys", &r), F2T_MREC_COUNTER);
	assert_true(r.m.value_is_double);
	assert_true(r.m.dvalue == 0.25);
	assert_true(is(r.category, "sys"));
	/* A number no trace format can hold: malformed, kept as an instant. */
	assert_int_equal(feed(t, 3, 5, 5, "C|5|big|1e999", &r), F2T_MREC_INSTANT);
	assert_non_null(r.malformed);
	assert_true(is(r.name, "C|5|big|1e999"));
	assert_int_equal(feed(t, 4, 5, 5, "C|5|nan|abc", &r), F2T_MREC_INSTANT);
	assert_non_null(r.malformed);
	f2t_mtrack_counts(t, &c);
	assert_int_equal(c.malformed, 2);
	f2t_mtrack_free(t);
}

static void test_async_pairing(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;
	struct f2t_mcounts c;
	uint64_t id1, id2;

	assert_int_equal(feed(t, 1, 31, 30, "S|30|load|7", &r), F2T_MREC_ASYNC_BEGIN);
	id1 = r.async_id;
	assert_int_equal(r.m.cookie, 7);
	/* Same cookie, other name: another slice. */
	assert_int_equal(feed(t, 2, 31, 30, "S|30|save|7", &r), F2T_MREC_ASYNC_BEGIN);
	id2 = r.async_id;
	assert_int_not_equal(id1, id2);
	/* Ends on another thread of the process: pairs by process, name, cookie. */
	assert_int_equal(feed(t, 3, 32, 30, "F|30|load|7", &r), F2T_MREC_ASYNC_END);
	assert_int_equal(r.async_id, id1);
	assert_true(is(r.name, "load"));
	/* Once ended, a second end has nothing to end. */
	assert_int_equal(feed(t, 4, 32, 30, "F|30|load|7", &r), F2T_MREC_NONE);
	/* Another process with the same name and cookie: not this slice. */
	assert_int_equal(feed(t, 5, 41, 40, "F|40|save|7", &r), F2T_MREC_NONE);
	assert_int_equal(f2t_mtrack_hash(30, 'S', (struct f2t_marker_str){ "save", 4 }, 7), id2);
	assert_int_not_equal(f2t_mtrack_hash(40, 'S', (struct f2t_marker_str){ "save", 4 }, 7), id2);

	/* G/H pair by track and cookie; H may leave the name out. */
	assert_int_equal(feed(t, 6, 31, 30, "G|30|net|fetch|9", &r), F2T_MREC_ASYNC_BEGIN);
	id1 = r.async_id;
	assert_true(is(r.m.track, "net"));
	assert_int_equal(feed(t, 7, 31, 30, "H|30|net|9", &r), F2T_MREC_ASYNC_END);
	assert_int_equal(r.async_id, id1);
	assert_true(is(r.name, "fetch"));	/* the begin's name */
	assert_int_equal(feed(t, 8, 31, 30, "N|30|net|hit", &r), F2T_MREC_INSTANT);
	assert_true(is(r.m.track, "net"));
	assert_true(is(r.name, "hit"));
	f2t_mtrack_counts(t, &c);
	assert_int_equal(c.unmatched_async_ends, 2);
	assert_int_equal(c.open_async, 1);	/* save|7 */
	f2t_mtrack_free(t);
}

/* Many slices open at once, ended out of order: the table stays exact. */
static void test_async_table_growth(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;
	struct f2t_mcounts c;
	char text[64];

	for (int i = 0; i < 1000; i++) {
		snprintf(text, sizeof(text), "S|1|op%d|%d", i % 7, i);
		assert_int_equal(feed(t, (uint64_t)i, 1, 1, text, &r), F2T_MREC_ASYNC_BEGIN);
	}
	for (int i = 999; i >= 0; i -= 2) {
		snprintf(text, sizeof(text), "F|1|op%d|%d", i % 7, i);
		assert_int_equal(feed(t, 2000, 1, 1, text, &r), F2T_MREC_ASYNC_END);
		snprintf(text, sizeof(text), "op%d", i % 7);
		assert_true(is(r.name, text));
	}
	for (int i = 0; i < 1000; i += 2) {
		snprintf(text, sizeof(text), "F|1|op%d|%d", i % 7, i);
		assert_int_equal(feed(t, 3000, 1, 1, text, &r), F2T_MREC_ASYNC_END);
	}
	f2t_mtrack_counts(t, &c);
	assert_int_equal(c.open_async, 0);
	assert_int_equal(c.unmatched_async_ends, 0);
	f2t_mtrack_free(t);
}

static void test_clock_sync_ids(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;
	struct f2t_mcounts c;

	assert_int_equal(f2t_mtrack_reserve_sync_id(t, "ours"), 0);
	assert_int_equal(feed(t, 1, 3, 3, "trace_event_clock_sync: name=a-1", &r),
			 F2T_MREC_CLOCK_SYNC);
	assert_true(is(r.sync_id, "a-1"));
	assert_true(is(r.name, "clock_sync"));
	/* The same id again would make Trace Viewer refuse the file. */
	assert_int_equal(feed(t, 2, 3, 3, "trace_event_clock_sync: name=a-1", &r),
			 F2T_MREC_INSTANT);
	assert_true(r.repeated_sync);
	assert_true(is(r.sync_id, "a-1"));
	assert_int_equal(feed(t, 3, 3, 3, "trace_event_clock_sync: name=ours", &r),
			 F2T_MREC_INSTANT);
	assert_true(r.repeated_sync);
	/* parent_ts has no id: it gets one from the kernel's timestamp. */
	assert_int_equal(feed(t, 123456789, 3, 3, "trace_event_clock_sync: parent_ts=12.5", &r),
			 F2T_MREC_CLOCK_SYNC);
	assert_true(is(r.sync_id, "parent_ts-123456789"));
	assert_true(r.m.has_parent_ts);
	assert_true(is(r.m.parent_ts, "12.5"));
	/* No id at all: malformed text. */
	assert_int_equal(feed(t, 4, 3, 3, "trace_event_clock_sync: name=", &r), F2T_MREC_INSTANT);
	assert_non_null(r.malformed);
	f2t_mtrack_counts(t, &c);
	assert_int_equal(c.repeated_sync_ids, 2);
	assert_int_equal(c.malformed, 1);
	f2t_mtrack_free(t);
}

static void test_text_and_malformed(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;

	assert_int_equal(feed(t, 1, 3, 3, "hello world", &r), F2T_MREC_INSTANT);
	assert_null(r.malformed);
	assert_true(is(r.name, "hello world"));
	assert_int_equal(feed(t, 2, 3, 3, "B|notapid|x", &r), F2T_MREC_INSTANT);
	assert_non_null(r.malformed);
	assert_true(is(r.name, "B|notapid|x"));
	assert_int_equal(feed(t, 3, 3, 3, "S|3|x|nocookie", &r), F2T_MREC_INSTANT);
	assert_non_null(r.malformed);
	assert_int_equal(feed(t, 4, 3, 3, "", &r), F2T_MREC_INSTANT);
	assert_null(r.malformed);
	f2t_mtrack_free(t);
}

/*
 * TEXT (LEN bytes) from thread TID of process TGID: in a Perfetto file, the
 * print event as WANT (trace_processor reads it as the model does), or, WANT
 * NULL, its record's item.
 */
static void assert_print(struct f2t_mtrack *t, int32_t tid, int32_t tgid, const char *text,
			 size_t len, const char *want)
{
	struct f2t_event ev = print_ev(1, tid, text);
	struct f2t_mrecord r;

	ev.print.len = len;
	assert_int_equal(f2t_mtrack_event(t, &ev, tgid, &r), 0);
	if (!want && r.print.atrace)
		fail_msg("%s: written as the print event, trace_processor would read it otherwise",
			 text);
	if (want && !r.print.atrace)
		fail_msg("%s: written as its item, trace_processor reads it as the model does", text);
	if (want && !is(r.print.text, want))
		fail_msg("%s: written as %.*s, not %s", text, (int)r.print.text.len, r.print.text.s,
			 want);
}

static void test_perfetto_print_events(void **state)
{
	static const struct {
		int32_t tgid;		/* of thread tgid */
		const char *text, *want;
	} cases[] = {
		/* What trace_processor reads as the model does: the print event, as it is. */
		{ 42, "B|42|work", "B|42|work" },
		{ 42, "C|42|queue|7", "C|42|queue|7" },
		{ 42, "C|42|queue|-7|cat", "C|42|queue|-7|cat" },
		{ 42, "S|42|load|9", "S|42|load|9" },
		{ 42, "I|42|tick", "I|42|tick" },
		{ 42, "N|42|track|tick", "N|42|track|tick" },
		{ 42, "G|42|track|load|9", "G|42|track|load|9" },
		{ 42, "trace_event_clock_sync: name=abc", "trace_event_clock_sync: name=abc" },
		/* A repeated sync id: an instant in the model, passed over by trace_processor. */
		{ 42, "trace_event_clock_sync: name=abc", "trace_event_clock_sync: name=abc" },
		/* Ends: only when the model matched them (to the B, S and G above). */
		{ 42, "E", "E" },
		{ 42, "F|42|load|9", "F|42|load|9" },
		{ 42, "H|42|track|9", "H|42|track|9" },
		{ 42, "E|42", NULL },
		{ 42, "F|42|load|9", NULL },
		{ 42, "H|42|track|9", NULL },
		/* The process is the task table's, whatever the text says. */
		{ 42, "B|1|work", "B|42|work" },
		{ 5, "C|99999|n|1", "C|5|n|1" },
		/* Where trace_processor would read it otherwise: the model's items. */
		{ 42, "hello world", NULL },
		{ 42, "B|x|work", NULL },		/* malformed */
		{ 42, "B|42|work|a=1", NULL },		/* it takes "name|args" for the name */
		{ 42, "C|42|load|0.5", NULL },		/* it reads integers only */
		{ 42, "B|42|", NULL },			/* no name */
		{ 42, "N|42||tick", NULL },		/* no track */
	};
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_print(t, cases[i].tgid, cases[i].tgid, cases[i].text, strlen(cases[i].text),
			     cases[i].want);
	/* A thread of another process than the text names. */
	feed(t, 1, 43, 123456, "B|7|w", &r);
	assert_print(t, 43, 123456, "E|7", 3, "E|123456");
	/* Cut at a NUL, as the kernel's own text is. */
	assert_print(t, 42, 42, "I|42|a\0junk", 11, "I|42|a");
	f2t_mtrack_free(t);
}

static void test_ftrace_text_sync_lines(void **state)
{
	struct f2t_mtrack *t = f2t_mtrack_new();
	struct f2t_mrecord r;

	/* The file's own id is no marker line's: the first line with it stays. */
	assert_int_equal(f2t_mtrack_reserve_sync_id(t, "ours"), 0);
	feed(t, 1, 3, 3, "trace_event_clock_sync: name=ours", &r);
	assert_true(r.repeated_sync);
	assert_false(r.print.repeated_sync_line);
	feed(t, 2, 3, 3, "trace_event_clock_sync: name=ours", &r);
	assert_true(r.print.repeated_sync_line);
	/* parent_ts lines have no id; a name= line may look like the one made up for them. */
	feed(t, 3, 3, 3, "trace_event_clock_sync: parent_ts=1.5", &r);
	assert_true(r.print.parent_ts_line);
	assert_false(r.print.repeated_sync_line);
	feed(t, 4, 3, 3, "trace_event_clock_sync: name=parent_ts-3", &r);
	assert_true(r.repeated_sync);
	assert_false(r.print.repeated_sync_line);
	assert_false(r.print.parent_ts_line);
	/* Other markers are lines like any other. */
	feed(t, 5, 3, 3, "B|3|work", &r);
	assert_false(r.print.repeated_sync_line || r.print.parent_ts_line);
	f2t_mtrack_free(t);
}

/* ---- writers ---- */

static const struct f2t_trace_info info = {
	.host = "h", .kernel = "6.18", .cmdline = "demo", .clock = "mono",
	.start_ns = 1000000000ull, .stop_ns = 9000000000ull,
	.realtime_ns = 1700000000000000000ull, .boottime_ns = 1000000500ull,
	.ncpus = 1, .recorder = "test",
	.sync_start = { "ftrace2trace-start-1-2", 1000000100ull, 1700000000000000100ull,
			1000000600ull },
};

static const char *const script[] = {
	"trace_event_clock_sync: name=ftrace2trace-start-1-2",
	"E|100",
	"B|100|frame|n=1",
	"C|100|depth|3",
	"B|100|draw",
	"C|100|load|0.5|sys",
	"E|100",
	"S|100|req|77",
	"I|100|tick",
	"F|100|req|77",
	"trace_event_clock_sync: name=app-sync",
	"trace_event_clock_sync: name=app-sync",
	"trace_event_clock_sync: parent_ts=5.000001",
	"N|100|lane|blip",
	"just text",
	"B|x|bad",
	"E|100",
};

/* FORMAT over a memfd, through the pipeline, fed the script from thread 101 of process 100. */
static char *run_writer(enum f2t_format format, size_t *len)
{
	struct f2t_recording rec = { .info = info, .tasks = f2t_tasks_new() };
	int fd = memfd_create("test_marker_track", 0);
	struct f2t_pipeline *p;
	char *buf;
	off_t n;

	assert_true(fd >= 0);
	f2t_task_set(f2t_tasks_get(rec.tasks, 100), "app", 100);
	f2t_task_set(f2t_tasks_get(rec.tasks, 101), "worker", 100);
	p = f2t_pipeline_new(&rec);
	assert_non_null(p);
	assert_int_equal(f2t_pipeline_add_out(p, f2t_out_fdopen(fd, "<mem>"), format), 0);
	for (size_t i = 0; i < sizeof(script) / sizeof(script[0]); i++) {
		struct f2t_event ev = print_ev(2000000000ull + i * 1000 + 1, 101, script[i]);

		assert_int_equal(f2t_pipeline_event(p, &ev), 0);
	}
	assert_int_equal(f2t_pipeline_finish(p, NULL), 0);
	f2t_pipeline_free(p);
	n = lseek(fd, 0, SEEK_END);
	assert_true(n > 0);
	buf = malloc((size_t)n + 1);
	assert_int_equal(pread(fd, buf, (size_t)n, 0), n);
	buf[n] = '\0';
	*len = (size_t)n;
	close(fd);
	f2t_tasks_free(rec.tasks);
	return buf;
}

#define HAS(s, want) do { if (!strstr((s), (want))) fail_msg("missing: %s", (want)); } while (0)

static void test_json_writer(void **state)
{
	size_t len;
	char *s = run_writer(F2T_FMT_JSON, &len);

	HAS(s, "{\"name\":\"clock_sync\",\"ph\":\"c\",\"ts\":2000000.001,\"pid\":100,\"tid\":101,"
	       "\"args\":{\"sync_id\":\"ftrace2trace-start-1-2\"}}");
	HAS(s, "{\"name\":\"frame\",\"cat\":\"marker\",\"ph\":\"B\",\"ts\":2000002.001,"
	       "\"pid\":100,\"tid\":101,\"args\":{\"args\":\"n=1\"}}");
	HAS(s, "{\"name\":\"depth\",\"cat\":\"marker\",\"ph\":\"C\",\"ts\":2000003.001,"
	       "\"pid\":100,\"tid\":101,\"args\":{\"value\":3}}");
	HAS(s, "{\"name\":\"draw\",\"cat\":\"marker\",\"ph\":\"B\",\"ts\":2000004.001,"
	       "\"pid\":100,\"tid\":101}");
	HAS(s, "{\"name\":\"load\",\"cat\":\"sys\",\"ph\":\"C\",\"ts\":2000005.001,"
	       "\"pid\":100,\"tid\":101,\"args\":{\"value\":0.5}}");
	/* An E carries its slice's category, no name: the model does not know which B it ends. */
	HAS(s, "{\"cat\":\"marker\",\"ph\":\"E\",\"ts\":2000006.001,\"pid\":100,\"tid\":101}");
	HAS(s, "\"ph\":\"b\",\"id\":\"0x");
	HAS(s, "\"ts\":2000007.001,\"pid\":100,\"tid\":101,\"args\":{\"cookie\":77}}");
	HAS(s, "{\"name\":\"tick\",\"cat\":\"marker\",\"ph\":\"i\",\"s\":\"t\",\"ts\":2000008.001,"
	       "\"pid\":100,\"tid\":101}");
	HAS(s, "\"ph\":\"e\",\"id\":\"0x");
	HAS(s, "{\"name\":\"clock_sync\",\"ph\":\"c\",\"ts\":2000010.001,\"pid\":100,\"tid\":101,"
	       "\"args\":{\"sync_id\":\"app-sync\"}}");
	HAS(s, "{\"name\":\"clock_sync\",\"cat\":\"marker\",\"ph\":\"i\",\"s\":\"t\","
	       "\"ts\":2000011.001,\"pid\":100,\"tid\":101,"
	       "\"args\":{\"sync_id\":\"app-sync\",\"repeated\":true}}");
	HAS(s, "{\"name\":\"clock_sync\",\"ph\":\"c\",\"ts\":2000012.001,\"pid\":100,\"tid\":101,"
	       "\"args\":{\"sync_id\":\"parent_ts-2000012001\",\"parent_ts\":\"5.000001\"}}");
	HAS(s, "{\"name\":\"blip\",\"cat\":\"marker\",\"ph\":\"i\",\"s\":\"t\",\"ts\":2000013.001,"
	       "\"pid\":100,\"tid\":101,\"args\":{\"track\":\"lane\"}}");
	HAS(s, "{\"name\":\"just text\",\"cat\":\"marker\",\"ph\":\"i\"");
	HAS(s, "{\"name\":\"B|x|bad\",\"cat\":\"marker\",\"ph\":\"i\",\"s\":\"t\","
	       "\"ts\":2000015.001,\"pid\":100,\"tid\":101,\"args\":{\"malformed\":");
	HAS(s, "{\"cat\":\"marker\",\"ph\":\"E\",\"ts\":2000016.001,\"pid\":100,\"tid\":101}");
	/* Exactly one E per B: the first E had nothing to end. */
	assert_null(strstr(s, "\"ts\":2000001.001"));
	/* Markers stay out of the text. */
	assert_null(strstr(s, "tracing_mark_write"));
	HAS(s, "\"markers\":17,\"markers_malformed\":1,\"markers_unmatched_ends\":1,"
	       "\"markers_unmatched_async_ends\":0,\"markers_repeated_sync_ids\":1,"
	       "\"markers_open_slices\":0,\"markers_open_async\":0,");
	HAS(s, "\"sync_start_id\":\"ftrace2trace-start-1-2\",\"sync_start_trace_ns\":2000000001,"
	       "\"sync_start_mono_ns\":1000000100,\"sync_start_realtime_ns\":1700000000000000100,"
	       "\"sync_start_boottime_ns\":1000000600");
	assert_null(strstr(s, "sync_end_id"));
	free(s);
}

static bool sv_is(const struct fxt_sv *sv, const char *s)
{
	return sv->len == strlen(s) && !memcmp(sv->s, s, sv->len);
}

static const struct fxt_arg *arg(const struct fxt_record *rec, const char *name)
{
	for (unsigned int i = 0; i < rec->nargs; i++)
		if (sv_is(&rec->args[i].name, name))
			return &rec->args[i];
	return NULL;
}

/* The next event record of the file, skipping everything else. */
static void next_event(struct fxt_reader *r, struct fxt_record *rec)
{
	while (fxt_reader_next(r, rec) > 0)
		if (rec->kind >= FXT_K_INSTANT && rec->kind <= FXT_K_FLOW_END)
			return;
	fail_msg("no more event records");
}

static void test_fxt_writer(void **state)
{
	size_t len;
	char *s = run_writer(F2T_FMT_FXT, &len);
	struct fxt_reader *r = fxt_reader_new(s, len);
	struct fxt_record rec;
	uint64_t async_id;

	next_event(r, &rec);	/* the start sync */
	assert_int_equal(rec.kind, FXT_K_INSTANT);
	assert_true(sv_is(&rec.event.name, "clock_sync"));
	assert_true(sv_is(&arg(&rec, "sync_id")->str, "ftrace2trace-start-1-2"));
	assert_int_equal(rec.event.thread.pid, 100);
	assert_int_equal(rec.event.thread.tid, 101);
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_DURATION_BEGIN);
	assert_int_equal(rec.event.ts, 2000002001ull);
	assert_true(sv_is(&rec.event.name, "frame"));
	assert_true(sv_is(&rec.event.category, "marker"));
	assert_true(sv_is(&arg(&rec, "args")->str, "n=1"));
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_COUNTER);
	assert_true(sv_is(&rec.event.name, "depth"));
	assert_int_equal(rec.event.extra, 100);	/* counter id: the process */
	assert_int_equal(arg(&rec, "value")->type, FXT_ARG_INT64);
	assert_int_equal(arg(&rec, "value")->i64, 3);
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_DURATION_BEGIN);
	assert_true(sv_is(&rec.event.name, "draw"));
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_COUNTER);
	assert_true(sv_is(&rec.event.category, "sys"));
	assert_int_equal(arg(&rec, "value")->type, FXT_ARG_DOUBLE);
	assert_true(arg(&rec, "value")->d == 0.5);
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_DURATION_END);
	assert_int_equal(rec.event.ts, 2000006001ull);
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_ASYNC_BEGIN);
	assert_true(sv_is(&rec.event.name, "req"));
	assert_int_equal(arg(&rec, "cookie")->i64, 77);
	async_id = rec.event.extra;
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_INSTANT);
	assert_true(sv_is(&rec.event.name, "tick"));
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_ASYNC_END);
	assert_int_equal(rec.event.extra, async_id);
	next_event(r, &rec);	/* app-sync */
	assert_true(sv_is(&arg(&rec, "sync_id")->str, "app-sync"));
	assert_null(arg(&rec, "repeated"));
	next_event(r, &rec);	/* app-sync again */
	assert_true(arg(&rec, "repeated")->b);
	next_event(r, &rec);
	assert_true(sv_is(&arg(&rec, "parent_ts")->str, "5.000001"));
	next_event(r, &rec);
	assert_true(sv_is(&rec.event.name, "blip"));
	assert_true(sv_is(&arg(&rec, "track")->str, "lane"));
	next_event(r, &rec);
	assert_true(sv_is(&rec.event.name, "just text"));
	next_event(r, &rec);
	assert_true(sv_is(&rec.event.name, "B|x|bad"));
	assert_non_null(arg(&rec, "malformed"));
	next_event(r, &rec);
	assert_int_equal(rec.kind, FXT_K_DURATION_END);
	/* The recording's identity, then the run's counts, the markers' among them. */
	next_event(r, &rec);
	assert_true(sv_is(&rec.event.name, "ftrace2trace_recording"));
	next_event(r, &rec);
	assert_true(sv_is(&rec.event.name, "ftrace2trace_stats"));
	assert_int_equal(arg(&rec, "markers")->u64, 17);
	assert_int_equal(arg(&rec, "markers_unmatched_ends")->u64, 1);
	assert_int_equal(arg(&rec, "markers_malformed")->u64, 1);
	assert_int_equal(arg(&rec, "markers_repeated_sync_ids")->u64, 1);
	fxt_reader_free(r);
	free(s);
}

static void test_systrace_sync_lines(void **state)
{
	size_t len;
	char *s = run_writer(F2T_FMT_SYSTRACE, &len);

	/* The repeated app-sync and the parent_ts (the text is on mono) are left out. */
	HAS(s, "# ftrace2trace: clock_sync_lines_left_out=2\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting_and_unmatched_ends),
		cmocka_unit_test(test_thread_and_process),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_async_pairing),
		cmocka_unit_test(test_async_table_growth),
		cmocka_unit_test(test_clock_sync_ids),
		cmocka_unit_test(test_text_and_malformed),
		cmocka_unit_test(test_perfetto_print_events),
		cmocka_unit_test(test_ftrace_text_sync_lines),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_fxt_writer),
		cmocka_unit_test(test_systrace_sync_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
