// SPDX-License-Identifier: MIT
/*
 * JSON building blocks and the JSON / systrace writers on synthetic events:
 * timestamps, escaping (expected bytes worked out by hand), the clock link,
 * the spool, CPU time ranking, and the shape of a whole file.
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

#include "model/cputime.h"
#include "text/ftrace_text.h"
#include "json/json_fmt.h"
#include "pipeline/pipeline.h"
#include "util/spool.h"
#include "event_source.h"

/* An f2t_out over a memfd, and a way to read back what was written. */
struct mem {
	int fd;
	struct f2t_out *out;
	char *text;
	size_t len;
};

static void mem_open(struct mem *m)
{
	m->fd = memfd_create("test_json", 0);
	assert_true(m->fd >= 0);
	m->out = f2t_out_fdopen(m->fd, "<mem>");
	assert_non_null(m->out);
	m->text = NULL;
}

/* Everything written so far, NUL-terminated, in m->text / m->len. */
static const char *mem_text(struct mem *m)
{
	off_t size;

	if (m->out)
		assert_int_equal(f2t_out_flush(m->out), 0);
	size = lseek(m->fd, 0, SEEK_END);
	free(m->text);
	m->text = calloc(1, (size_t)size + 1);
	assert_int_equal(pread(m->fd, m->text, (size_t)size, 0), size);
	m->len = (size_t)size;
	return m->text;
}

/* The output, handed to a pipeline that will close it. */
static struct f2t_out *mem_give(struct mem *m)
{
	struct f2t_out *o = m->out;

	m->out = NULL;
	return o;
}

static void mem_close(struct mem *m)
{
	if (m->out)
		f2t_out_close(m->out);
	close(m->fd);
	free(m->text);
}

static const char *fmt_ts(uint64_t ns)
{
	static char buf[F2T_JSON_NUM_MAX + 1];

	buf[f2t_json_ts(buf, ns)] = '\0';
	return buf;
}

static void test_timestamps(void **state)
{
	assert_string_equal(fmt_ts(1234567), "1234.567");
	assert_string_equal(fmt_ts(0), "0.000");
	assert_string_equal(fmt_ts(999), "0.999");
	assert_string_equal(fmt_ts(5000), "5.000");
	assert_string_equal(fmt_ts(1000001), "1000.001");
	assert_string_equal(fmt_ts(1698393087654321ull), "1698393087654.321");
	assert_string_equal(fmt_ts(UINT64_MAX), "18446744073709551.615");
}

static void test_integers(void **state)
{
	char buf[F2T_JSON_NUM_MAX + 1];

	buf[f2t_json_u64(buf, 0)] = '\0';
	assert_string_equal(buf, "0");
	buf[f2t_json_u64(buf, UINT64_MAX)] = '\0';
	assert_string_equal(buf, "18446744073709551615");
	buf[f2t_json_i64(buf, -42)] = '\0';
	assert_string_equal(buf, "-42");
	buf[f2t_json_i64(buf, INT64_MIN)] = '\0';
	assert_string_equal(buf, "-9223372036854775808");
}

static const char *escaped(struct mem *m, const char *s, size_t len)
{
	assert_int_equal(ftruncate(m->fd, 0), 0);
	lseek(m->fd, 0, SEEK_SET);
	f2t_json_put_string(m->out, s, len);
	return mem_text(m);
}

#define ESC(m, lit) escaped(m, lit, sizeof(lit) - 1)

static void test_escaping(void **state)
{
	struct mem m;

	mem_open(&m);
	/* A task name with a quote, a backslash, a newline, a tab, 0x01, 0xff. */
	assert_string_equal(ESC(&m, "a\"b\\c\nd\te\x01" "f\xff"),
			    "\"a\\\"b\\\\c\\nd\\te\\u0001f\xef\xbf\xbd\"");
	assert_string_equal(ESC(&m, "\r\b\f\x1f\x7f/"), "\"\\r\\b\\f\\u001f\x7f/\"");
	assert_string_equal(ESC(&m, ""), "\"\"");
	/* A NUL inside the given length is a control character like any other. */
	assert_string_equal(escaped(&m, "x\0y", 3), "\"x\\u0000y\"");
	/* Valid UTF-8 passes through: 2, 3 and 4 bytes. */
	assert_string_equal(ESC(&m, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
			    "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	/* One U+FFFD per maximal ill-formed subpart, as Python's decoder does. */
#define R "\xef\xbf\xbd"
	assert_string_equal(ESC(&m, "\xc0\x80"), "\"" R R "\"");		/* overlong */
	assert_string_equal(ESC(&m, "\xe0\x80\x80"), "\"" R R R "\"");	/* overlong */
	assert_string_equal(ESC(&m, "\xed\xa0\x80"), "\"" R R R "\"");	/* surrogate */
	assert_string_equal(ESC(&m, "\xf4\x90\x80\x80"), "\"" R R R R "\"");	/* > U+10FFFF */
	assert_string_equal(ESC(&m, "\xe2\x82"), "\"" R "\"");		/* cut at the end */
	assert_string_equal(ESC(&m, "\xe2\x82" "A"), "\"" R "A\"");	/* cut by ASCII */
	assert_string_equal(ESC(&m, "\xf0\x9f\x98"), "\"" R "\"");
	assert_string_equal(ESC(&m, "\xff\xfe\x80"), "\"" R R R "\"");
#undef R
	mem_close(&m);
}

/* What one byte between plain ASCII letters must become, from RFC 8259. */
static void one_byte_escaped(unsigned char c, char *out)
{
	static const char named[] = { ['"'] = '"', ['\\'] = '\\', ['\n'] = 'n', ['\t'] = 't',
				      ['\r'] = 'r', ['\b'] = 'b', ['\f'] = 'f' };

	if (c < sizeof(named) && named[c])
		sprintf(out, "\\%c", named[c]);
	else if (c < 0x20)
		sprintf(out, "\\u%04x", c);
	else if (c >= 0x80)
		strcpy(out, "\xef\xbf\xbd");	/* a lone non-ASCII byte: U+FFFD */
	else
		sprintf(out, "%c", c);
}

/*
 * Plain text is skipped 32 bytes at a time, then 8: every byte value, at
 * every position of two 32-byte blocks and of the 8-byte ones after them,
 * still comes out escaped.
 */
static void test_escaping_every_byte_everywhere(void **state)
{
	char in[76], want[128], esc[8];
	struct mem m;

	mem_open(&m);
	for (unsigned int c = 0; c < 256; c++) {
		one_byte_escaped((unsigned char)c, esc);
		for (size_t at = 0; at < sizeof(in); at++) {
			memset(in, 'a', sizeof(in));
			in[at] = (char)c;
			snprintf(want, sizeof(want), "\"%.*s%s%.*s\"", (int)at, in, esc,
				 (int)(sizeof(in) - at - 1), in + at + 1);
			assert_string_equal(escaped(&m, in, sizeof(in)), want);
		}
	}
	mem_close(&m);
}

static const struct f2t_trace_info mono_info = {
	.host = "h", .kernel = "6.18", .cmdline = "true", .clock = "mono",
	.start_ns = 5000001234ull, .stop_ns = 6000000000ull,
	.realtime_ns = 1700000000123456789ull, .boottime_ns = 5000009999ull,
	.ncpus = 2, .recorder = "ftrace2trace test",
};

static void test_clock_link(void **state)
{
	struct f2t_trace_info info = mono_info;
	struct f2t_clock_link l;

	f2t_clock_link_choose(&info, true, &l);
	assert_int_equal(l.kind, F2T_LINK_MONO_COMMENT);
	assert_int_equal(l.ts, 5000001000ull);	/* whole microseconds */
	assert_string_equal(l.sync_id, "ftrace2trace-12a05f6d2-17979cfe3d85cd15");

	/* boot: the CLOCK_BOOTTIME / CLOCK_MONOTONIC pair read at start. */
	info.clock = "boot";
	f2t_clock_link_choose(&info, false, &l);
	assert_int_equal(l.kind, F2T_LINK_PARENT_TS);
	assert_int_equal(l.ts, 5000009000ull);
	assert_int_equal(l.parent_ns, 5000000235ull);	/* the same 999 ns earlier */
	f2t_clock_link_choose(&info, true, &l);
	assert_int_equal(l.kind, F2T_LINK_SYNC_ID);

	/* Any other clock: nothing ties it to CLOCK_MONOTONIC. */
	info.clock = "global";
	f2t_clock_link_choose(&info, false, &l);
	assert_int_equal(l.kind, F2T_LINK_PARENT_TS);
	assert_int_equal(l.parent_ns, 0);
}

static void test_text_header_link_lines(void **state)
{
	struct f2t_trace_info info = mono_info;
	struct f2t_clock_link l;
	struct f2t_ftext t;
	struct mem m;

	mem_open(&m);
	f2t_ftext_init(&t, m.out, NULL, NULL);
	f2t_clock_link_choose(&info, false, &l);
	f2t_ftext_header(&t, &info, &l);
	assert_non_null(strstr(mem_text(&m), "# tracer: nop\n#\n# clock_type=LINUX_CLOCK_MONOTONIC\n"));
	assert_null(strstr(m.text, "trace_event_clock_sync"));

	info.clock = "boot";
	f2t_clock_link_choose(&info, false, &l);
	f2t_ftext_header(&t, &info, &l);
	assert_non_null(strstr(mem_text(&m),
		"           <...>-0       (-------) [000] .....     5.000009: tracing_mark_write: "
		"trace_event_clock_sync: parent_ts=5.000000\n"));

	/* The JSON flavour escapes: the header's line breaks become \n. */
	f2t_ftext_init(&t, m.out, f2t_json_put_escaped, NULL);
	f2t_clock_link_choose(&info, true, &l);
	f2t_ftext_header(&t, &info, &l);
	assert_non_null(strstr(mem_text(&m),
		"# tracer: nop\\n#\\n# trace_clock: boot   #P:2\\n"));
	assert_non_null(strstr(m.text, "trace_event_clock_sync: name=ftrace2trace-12a05f6d2-"
				       "17979cfe3d85cd15\\n"));
	mem_close(&m);
}

static void test_spool(void **state)
{
	struct f2t_spool s = { .fd = -1 };
	struct mem m;

	mem_open(&m);
	assert_int_equal(f2t_spool_open(&s, NULL), 0);
	f2t_out_puts(s.out, "spooled ");
	for (int i = 0; i < 300000; i++)	/* past the 1 MiB output buffer */
		f2t_out_puts(s.out, "0123456789");
	f2t_out_puts(m.out, "head ");
	assert_int_equal(f2t_spool_copy(&s, m.out), 0);
	f2t_out_puts(m.out, " tail");
	mem_text(&m);
	assert_int_equal(m.len, 5 + 8 + 3000000 + 5);
	assert_memory_equal(m.text, "head spooled 0123", 17);
	assert_string_equal(m.text + m.len - 8, "789 tail");
	f2t_spool_close(&s);
	f2t_spool_close(&s);	/* twice is harmless */
	mem_close(&m);
}

/* Where a spool's file is: the directory its descriptor's link names. */
static void assert_spool_in(const struct f2t_spool *s, const char *dir)
{
	char link[64], target[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", s->fd);
	n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = 0;
	assert_true(strncmp(target, dir, strlen(dir)) == 0);
	assert_int_equal(target[strlen(dir)], '/');
	assert_null(strchr(target + strlen(dir) + 1, '/'));
}

/*
 * Standard output has no directory: its spool goes to $TMPDIR, not the
 * current directory (which may be a small file system, or nobody's to fill);
 * a named output's goes next to it.
 */
static void test_spool_place(void **state)
{
	char tmp[] = "/tmp/f2t-spool-XXXXXX", cwd[4096], path[4096];
	struct f2t_spool s = { .fd = -1 };
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;
	struct f2t_out *o;

	assert_non_null(mkdtemp(tmp));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	setenv("TMPDIR", tmp, 1);
	o = f2t_out_fdopen(STDOUT_FILENO, "standard output");
	assert_non_null(o);
	assert_int_equal(f2t_spool_open(&s, o), 0);
	assert_spool_in(&s, tmp);
	f2t_spool_close(&s);
	f2t_out_abort(o);

	setenv("TMPDIR", cwd, 1);	/* a named output's directory wins */
	snprintf(path, sizeof(path), "%s/out.json", tmp);
	o = f2t_out_open(path);
	assert_non_null(o);
	assert_int_equal(f2t_spool_open(&s, o), 0);
	assert_spool_in(&s, tmp);
	f2t_spool_close(&s);
	f2t_out_abort(o);

	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	assert_int_equal(rmdir(tmp), 0);	/* nothing named was left there */
}

static struct f2t_event sw(uint64_t ts, uint32_t cpu, int32_t prev, int32_t next)
{
	struct f2t_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .kind = F2T_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_comm = ev.sw.next_comm = "x";
	return ev;
}

/* The tracker makes the tasks of a switch before the tally sees it. */
static void account(struct f2t_cputime *c, struct f2t_tasks *t, struct f2t_event ev)
{
	if (ev.kind == F2T_EV_SWITCH) {
		assert_non_null(f2t_tasks_get(t, ev.sw.prev_pid));
		assert_non_null(f2t_tasks_get(t, ev.sw.next_pid));
	}
	assert_int_equal(f2t_cputime_event(c, &ev), 0);
}

static uint64_t cpu_ns(const struct f2t_cputime *c, const struct f2t_tasks *t, int32_t tid)
{
	const struct f2t_task *task = f2t_tasks_find(t, tid);

	return task ? f2t_cputime_of(c, task) : 0;
}

static void test_cputime(void **state)
{
	struct f2t_tasks *t = f2t_tasks_new();
	struct f2t_cputime *c = f2t_cputime_new(t);

	assert_non_null(c);
	account(c, t, sw(100, 0, 0, 10));
	account(c, t, sw(150, 0, 10, 20));		/* 10 ran 50 */
	account(c, t, sw(400, 0, 20, 0));		/* 20 ran 250 */
	account(c, t, sw(1000, 1, 30, 10));		/* cpu 1: before its first switch, unknown */
	account(c, t, (struct f2t_event){ .ts = 1100, .cpu = 1, .kind = F2T_EV_LOST });
	account(c, t, sw(1200, 1, 10, 0));		/* after a loss: unknown too */
	assert_int_equal(cpu_ns(c, t, 10), 50);
	assert_int_equal(cpu_ns(c, t, 20), 250);
	assert_int_equal(cpu_ns(c, t, 30), 0);
	assert_int_equal(cpu_ns(c, t, 0), 0);		/* idle is not counted */
	/* Thousands of threads: every count kept. */
	for (int32_t tid = 1; tid < 5000; tid++)
		account(c, t, sw(2000 + (uint64_t)tid * 10, 0, tid - 1, tid));
	assert_int_equal(cpu_ns(c, t, 20), 250 + 10);
	assert_int_equal(cpu_ns(c, t, 4998), 10);
	f2t_cputime_free(c);
	f2t_tasks_free(t);
}

/* A whole JSON file from synthetic events (a test source: no kernel text). */
static void test_json_writer_shape(void **state)
{
	struct f2t_recording rec = { .info = mono_info, .tasks = f2t_tasks_new() };
	struct f2t_event ev[4] = {
		sw(1000, 0, 0, 50),
		sw(901000, 0, 50, 43),
		{ .ts = 1234567, .cpu = 0, .pid = 43, .kind = F2T_EV_PRINT },
		{ .ts = 1300000, .cpu = 1, .kind = F2T_EV_LOST },
	};
	struct event_source src = event_source(ev, 4);
	struct f2t_pipeline *p;
	struct mem m;
	const char *s;

	/* The switches name the tasks as the table does: the tracker sees them too. */
	ev[0].sw.next_comm = ev[1].sw.prev_comm = "busy";
	ev[1].sw.next_comm = "worker";
	ev[2].print.buf = "B|42|frame";
	ev[2].print.len = 10;
	src.counts.lost_events = 7;
	mem_open(&m);
	f2t_task_set(f2t_tasks_get(rec.tasks, 42), "a\"b\\c\nd\te\x01" "f\xff", 42);
	f2t_task_set(f2t_tasks_get(rec.tasks, 43), "worker", 42);
	f2t_tasks_get(rec.tasks, 44);		/* name unknown: "<...>" */
	f2t_task_set(f2t_tasks_get(rec.tasks, 50), "busy", 50);
	p = f2t_pipeline_new(&rec);
	assert_non_null(p);
	assert_int_equal(f2t_pipeline_add_out(p, mem_give(&m), F2T_FMT_JSON), 0);
	assert_int_equal(f2t_pipeline_run(p, &src.base, false), 0);
	assert_int_equal(f2t_pipeline_finish(p, &src.base), 0);
	f2t_pipeline_free(p);
	s = mem_text(&m);

	/* The text first (the bigger part goes straight out), then traceEvents. */
	assert_memory_equal(s, "{\"displayTimeUnit\":\"ns\",\"systemTraceEvents\":\"# tracer: nop\\n#\\n"
			       "# clock_type=LINUX_CLOCK_MONOTONIC\\n", 96);
	assert_non_null(strstr(s, "\",\n\"traceEvents\":[\n"
				  "{\"name\":\"clock_sync\",\"ph\":\"c\",\"ts\":5000001.000,"));
	/* A marker is a slice on the thread that wrote it, and not in the text. */
	assert_non_null(strstr(s, "{\"name\":\"frame\",\"cat\":\"marker\",\"ph\":\"B\","
				  "\"ts\":1234.567,\"pid\":42,\"tid\":43}"));
	assert_null(strstr(s, "tracing_mark_write"));
	assert_non_null(strstr(s, "\"markers_open_slices\":1,"));
	assert_non_null(strstr(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":42,\"tid\":42,"
				  "\"args\":{\"name\":\"a\\\"b\\\\c\\nd\\te\\u0001f\xef\xbf\xbd\"}}"));
	assert_non_null(strstr(s, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":42,\"tid\":42,"));
	assert_non_null(strstr(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":42,\"tid\":43,"
				  "\"args\":{\"name\":\"worker\"}}"));
	assert_null(strstr(s, "<...>"));	/* an unknown name is not a name */
	/* "busy" ran 900 us, process 42 only after: it comes first. */
	assert_non_null(strstr(s, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":50,"
				  "\"tid\":50,\"args\":{\"sort_index\":0}}"));
	assert_non_null(strstr(s, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":42,"
				  "\"tid\":42,\"args\":{\"sort_index\":1}}"));
	/* The names close traceEvents. */
	assert_non_null(strstr(s, "\"args\":{\"sort_index\":0}}\n]"));
	/* The source's counts and the pipeline's own, listed once. */
	assert_non_null(strstr(s, "\"lost_events\":7,"));
	assert_non_null(strstr(s, "\"lost_event_notes\":1,"));
	assert_non_null(strstr(s, "\"sched_gaps\":0,"));
	assert_non_null(strstr(s, "\"sched_switch\":2,"));
	assert_non_null(strstr(s, "\"events_without_text\":2,"));	/* not the marker */
	assert_non_null(strstr(s, "\"start_time\":\"2023-11-14T22:13:20.123456789Z\""));
	assert_string_equal(s + m.len - 3, "}}\n");
	mem_close(&m);
	f2t_tasks_free(rec.tasks);
}

static void test_systrace_writer_trailer(void **state)
{
	struct f2t_recording rec = { .info = mono_info, .tasks = f2t_tasks_new() };
	struct event_source src = event_source(NULL, 0);
	struct f2t_pipeline *p;
	struct mem m;

	src.counts.lost_events = 5;
	mem_open(&m);
	p = f2t_pipeline_new(&rec);
	assert_non_null(p);
	assert_int_equal(f2t_pipeline_add_out(p, mem_give(&m), F2T_FMT_SYSTRACE), 0);
	assert_int_equal(f2t_pipeline_finish(p, &src.base), 0);
	f2t_pipeline_free(p);
	assert_memory_equal(mem_text(&m), "# tracer: nop\n#\n# clock_type=LINUX_CLOCK_MONOTONIC\n", 51);
	/* Every count of the run, on one comment line. */
	assert_non_null(strstr(m.text, "# ftrace2trace: events=0 sched_switch=0 "));
	assert_non_null(strstr(m.text, " lost_events=5 "));
	assert_non_null(strstr(m.text, " events_without_text=0\n"));
	mem_close(&m);
	f2t_tasks_free(rec.tasks);
}

/*
 * Trace Viewer's line pattern predates the kernel's newer latency flags and
 * drops such a line (a wakeup it would not see): the JSON's text has the
 * nearest flags it reads, the stand-alone text keeps the kernel's.
 */
static void test_flags_for_trace_viewer(void **state)
{
	static const char *const text[] = {
		"   rcu_tasks_trace-29      (     29) [001] D..4.  4654.744042: sched_wakeup: comm=a pid=5 prio=120 target_cpu=001",
		"              sh-40      (     40) [000] dLZ1.  4654.744043: sched_wakeup: comm=a pid=5 prio=120 target_cpu=000",
		"              sh-40      (     40) [000] .b.1.  4654.744044: sched_wakeup: comm=a pid=5 prio=120 target_cpu=000",
		/* A name that looks like the columns: only the real ones change. */
		"  x) [123] Dl.1. -41      (     41) [000] d..2.  4654.744045: sched_wakeup: comm=a pid=5 prio=120 target_cpu=000",
	};
	struct f2t_recording rec = { .info = mono_info, .tasks = f2t_tasks_new() };
	struct f2t_event ev[4];
	struct event_source src = event_source(ev, 4);
	struct f2t_pipeline *p;
	struct mem j, t;
	const char *s;

	for (int i = 0; i < 4; i++)
		ev[i] = (struct f2t_event){ .ts = 4654744042000ull + (uint64_t)i * 1000,
					    .kind = F2T_EV_WAKEUP, .pid = 40 };
	src.text = text;
	mem_open(&j);
	mem_open(&t);
	p = f2t_pipeline_new(&rec);
	assert_non_null(p);
	assert_int_equal(f2t_pipeline_add_out(p, mem_give(&j), F2T_FMT_JSON), 0);
	assert_int_equal(f2t_pipeline_add_out(p, mem_give(&t), F2T_FMT_SYSTRACE), 0);
	assert_int_equal(f2t_pipeline_run(p, &src.base, false), 0);
	assert_int_equal(f2t_pipeline_finish(p, &src.base), 0);
	f2t_pipeline_free(p);
	s = mem_text(&j);
	assert_non_null(strstr(s, "(     29) [001] d..4.  4654.744042: sched_wakeup"));
	assert_non_null(strstr(s, "(     40) [000] dNH1.  4654.744043: sched_wakeup"));
	assert_non_null(strstr(s, "(     40) [000] .n.1.  4654.744044: sched_wakeup"));
	assert_non_null(strstr(s, "  x) [123] Dl.1. -41      (     41) [000] d..2.  4654.744045"));
	assert_non_null(strstr(s, "\"lines_with_flags_for_trace_viewer\":3,"));
	s = mem_text(&t);
	for (int i = 0; i < 4; i++)
		assert_non_null(strstr(s, text[i]));
	mem_close(&j);
	mem_close(&t);
	f2t_tasks_free(rec.tasks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_escaping_every_byte_everywhere),
		cmocka_unit_test(test_clock_link),
		cmocka_unit_test(test_text_header_link_lines),
		cmocka_unit_test(test_spool),
		cmocka_unit_test(test_spool_place),
		cmocka_unit_test(test_cputime),
		cmocka_unit_test(test_json_writer_shape),
		cmocka_unit_test(test_flags_for_trace_viewer),
		cmocka_unit_test(test_systrace_writer_trailer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
