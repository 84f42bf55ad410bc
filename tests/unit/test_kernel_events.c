// SPDX-License-Identifier: MIT
/*
 * Function-tracer, irq and idle events from capture to every output, where
 * the kernel refuses the function tracer: a capture is built here from the
 * kernel's own format files (tests/fixtures/formats) with ring-buffer
 * pages written by hand, a small kallsyms and a task snapshot, then run
 * through f2t_convert() into FXT, JSON and ftrace text.  Checked: nesting
 * and timestamps of the function_graph slices (also when the trace starts
 * inside a call, or an exit was lost), symbol names (kernel, module,
 * unknown), irq slices and idle counters on the per-CPU pseudo threads,
 * cpu_frequency, and the text lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture/capture.h"
#include "pipeline/convert.h"
#include "source/ringbuf/functext.h"
#include "fxt/reader.h"
#include "model/pseudo.h"

#define T0 1000000000000ull	/* trace clock at the start of each page: 1000 s */
#define PAGE 4096

static char dir[64];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* tests/fixtures/formats, next to this file (or $F2T_FIXTURES). */
static void fixture_path(char *out, size_t len, const char *name)
{
	const char *env = getenv("F2T_FIXTURES");
	const char *self = __FILE__, *slash = strrchr(self, '/');

	if (env)
		snprintf(out, len, "%s/formats/%s", env, name);
	else
		snprintf(out, len, "%.*s/../fixtures/formats/%s", (int)(slash ? slash - self : 1),
			 slash ? self : ".", name);
}

/* Adds the format of SYSTEM.EVENT to the capture; returns its event id. */
static uint16_t add_format(struct f2t_capw *w, const char *system, const char *event)
{
	char path[512], name[128];
	const char *id;
	size_t len;
	char *text;
	uint16_t v;

	snprintf(name, sizeof(name), "%s.%s.format", system, event);
	fixture_path(path, sizeof(path), name);
	text = slurp(path, &len);
	id = strstr(text, "\nID: ");
	assert_non_null(id);
	v = (uint16_t)atoi(id + 5);
	assert_int_equal(f2t_capw_add2(w, F2T_CAP_EVENT_FORMAT, 0, system, strlen(system) + 1,
				       text, len), 0);
	free(text);
	return v;
}

/* ---- one ring-buffer page, as the kernel lays it out (header_page) ---- */

struct page {
	unsigned char b[PAGE];
	size_t len;
	uint64_t last;
};

static void page_init(struct page *p)
{
	uint64_t ts = T0;

	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
	p->len = 16;
	p->last = T0;
}

/* One data event: a 32-bit header, type_len (words of data) | time_delta << 5. */
static void page_add(struct page *p, uint64_t at, const void *data, size_t size)
{
	uint64_t delta = T0 + at - p->last;
	uint32_t hdr;

	assert_true(size % 4 == 0 && size / 4 >= 1 && size / 4 <= 28);
	assert_true(delta < (1u << 27));
	hdr = (uint32_t)(size / 4) | (uint32_t)delta << 5;
	memcpy(p->b + p->len, &hdr, 4);
	memcpy(p->b + p->len + 4, data, size);
	p->len += 4 + size;
	p->last = T0 + at;
}

static void page_close(struct page *p)
{
	uint64_t commit = p->len - 16;

	memcpy(p->b + 8, &commit, 8);
}

/* ---- records: the common fields, then each event's, at the format's offsets ---- */

struct rec {
	unsigned char b[64];
};

static struct rec common(uint16_t id, int32_t pid)
{
	struct rec r;

	memset(&r, 0, sizeof(r));
	memcpy(r.b, &id, 2);
	memcpy(r.b + 4, &pid, 4);
	return r;
}

static void put32(struct rec *r, int off, uint32_t v)
{
	memcpy(r->b + off, &v, 4);
}

static void put64(struct rec *r, int off, uint64_t v)
{
	memcpy(r->b + off, &v, 8);
}

struct ids {
	uint16_t function, entry, exit, irq_entry, irq_exit, soft_entry, soft_exit, idle, freq;
};

static void function(struct page *p, const struct ids *id, uint64_t at, int32_t pid,
		     uint64_t ip, uint64_t parent)
{
	struct rec r = common(id->function, pid);

	put64(&r, 8, ip);
	put64(&r, 16, parent);
	page_add(p, at, r.b, 24);
}

static void entry(struct page *p, const struct ids *id, uint64_t at, int32_t pid,
		  uint64_t func, uint32_t depth)
{
	struct rec r = common(id->entry, pid);

	put64(&r, 8, func);
	put32(&r, 16, depth);
	page_add(p, at, r.b, 24);
}

static void exit_(struct page *p, const struct ids *id, uint64_t at, int32_t pid,
		  uint64_t func, uint32_t depth, uint64_t calltime, uint64_t rettime)
{
	struct rec r = common(id->exit, pid);

	put64(&r, 8, func);
	put32(&r, 16, depth);
	put32(&r, 20, 0);		/* overrun */
	put64(&r, 24, calltime);
	put64(&r, 32, rettime);
	page_add(p, at, r.b, 40);
}

static void irq_entry(struct page *p, const struct ids *id, uint64_t at, int32_t pid,
		      int32_t irq, const char *name)
{
	struct rec r = common(id->irq_entry, pid);
	size_t n = strlen(name) + 1;

	put32(&r, 8, (uint32_t)irq);
	put32(&r, 12, (uint32_t)(n << 16 | 16));	/* __data_loc: length << 16 | offset */
	memcpy(r.b + 16, name, n);
	page_add(p, at, r.b, (16 + n + 3) & ~(size_t)3);
}

static void small(struct page *p, uint16_t type, uint64_t at, int32_t pid, uint32_t a, uint32_t b,
		  size_t size)
{
	struct rec r = common(type, pid);

	put32(&r, 8, a);
	put32(&r, 12, b);
	page_add(p, at, r.b, size);
}

/* Kernel symbols: a few of the kernel's, one of a module's. */
static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81100000 T do_sys_openat2\n"
	"ffffffff81100400 T getname\n"
	"ffffffff81100800 T __x64_sys_openat\n"
	"ffffffff81101000 T kmem_cache_alloc\n"
	"ffffffff81102000 T do_idle\n"
	"ffffffffc0000000 t xfs_foo\t[xfs]\n";

#define DO_SYS_OPENAT2	0xffffffff81100000ull
#define GETNAME		0xffffffff81100400ull
#define SYS_OPENAT	0xffffffff81100800ull
#define KMEM_CACHE_ALLOC	0xffffffff81101000ull
#define DO_IDLE		0xffffffff81102000ull
#define XFS_FOO		0xffffffffc0000000ull
#define NOWHERE		0xffffffff90000000ull	/* no symbol covers it */

/* The metadata, the kernel's header page and the function tracers' formats. */
static void capture_start(struct f2t_capw *w, const char *meta, struct ids *id)
{
	char hp[512];
	char *header;
	size_t len;

	assert_non_null(w);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_META, 0, meta, strlen(meta)), 0);
	fixture_path(hp, sizeof(hp), "header_page");
	header = slurp(hp, &len);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_HEADER_PAGE, 0, header, len), 0);
	free(header);
	id->function = add_format(w, "ftrace", "function");
	id->entry = add_format(w, "ftrace", "funcgraph_entry");
	id->exit = add_format(w, "ftrace", "funcgraph_exit");
}

static void write_capture(const char *path)
{
	struct f2t_capw *w = f2t_capw_open(path, false);
	const char meta[] = "clock=mono\nncpus=2\nsubbuf_size=4096\n";
	const char tasks[] = "100 100 worker\n101 101 opener\n102 102 other\n";
	struct page cpu0, cpu1;
	struct ids id;

	capture_start(w, meta, &id);
	id.irq_entry = add_format(w, "irq", "irq_handler_entry");
	id.irq_exit = add_format(w, "irq", "irq_handler_exit");
	id.soft_entry = add_format(w, "irq", "softirq_entry");
	id.soft_exit = add_format(w, "irq", "softirq_exit");
	id.idle = add_format(w, "power", "cpu_idle");
	id.freq = add_format(w, "power", "cpu_frequency");
	assert_int_equal(f2t_capw_add(w, F2T_CAP_TASKS, 0, tasks, strlen(tasks)), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_KALLSYMS, 0, kallsyms, strlen(kallsyms)), 0);

	page_init(&cpu0);
	/* An irq exit whose entry came before the trace: nothing to end. */
	small(&cpu0, id.irq_exit, 9000, 100, 25, 1, 16);
	/* pid 100: open(), two calls inside it. */
	entry(&cpu0, &id, 10000, 100, DO_SYS_OPENAT2, 0);
	entry(&cpu0, &id, 10100, 100, GETNAME, 1);
	exit_(&cpu0, &id, 10300, 100, GETNAME, 1, 5000, 5200);
	entry(&cpu0, &id, 10400, 100, KMEM_CACHE_ALLOC, 1);
	exit_(&cpu0, &id, 10600, 100, KMEM_CACHE_ALLOC, 1, 5400, 5600);
	exit_(&cpu0, &id, 11000, 100, DO_SYS_OPENAT2, 0, 5000, 6000);
	/* The function tracer: a kernel caller, none, an unknown address. */
	function(&cpu0, &id, 11100, 100, GETNAME, DO_SYS_OPENAT2 + 0x40);
	function(&cpu0, &id, 11200, 100, XFS_FOO + 0x10, 0);
	function(&cpu0, &id, 11300, 100, NOWHERE, SYS_OPENAT + 8);
	/* A hardirq inside a softirq. */
	small(&cpu0, id.soft_entry, 12000, 100, 1, 0, 12);
	irq_entry(&cpu0, &id, 12010, 100, 24, "virtio0");
	small(&cpu0, id.irq_exit, 12020, 100, 24, 1, 16);
	small(&cpu0, id.soft_exit, 12030, 100, 1, 0, 12);
	/* Idle: state 1, then out (4294967295). */
	small(&cpu0, id.idle, 13000, 0, 1, 0, 16);
	small(&cpu0, id.idle, 13500, 0, 4294967295u, 0, 16);
	/* The idle task's own calls. */
	entry(&cpu0, &id, 14000, 0, DO_IDLE, 0);
	exit_(&cpu0, &id, 14100, 0, DO_IDLE, 0, 9000, 9100);
	page_close(&cpu0);

	page_init(&cpu1);
	/* pid 101: the trace began inside openat(); a call within it is seen whole. */
	entry(&cpu1, &id, 10050, 101, GETNAME, 1);
	exit_(&cpu1, &id, 10150, 101, GETNAME, 1, 7000, 7100);
	/* Measured 420 ns: it must still hold getname, which began 450 ns before. */
	exit_(&cpu1, &id, 10500, 101, SYS_OPENAT, 0, 6580, 7000);
	/* pid 102: getname's exit was lost. */
	entry(&cpu1, &id, 12000, 102, DO_SYS_OPENAT2, 0);
	entry(&cpu1, &id, 12100, 102, GETNAME, 1);
	exit_(&cpu1, &id, 12500, 102, DO_SYS_OPENAT2, 0, 1, 501);
	/* CPU 1 reports CPU 0's new frequency (cpu_id is what counts), in kHz. */
	small(&cpu1, id.freq, 13200, 0, 2400000, 0, 16);
	page_close(&cpu1);

	assert_int_equal(f2t_capw_add(w, F2T_CAP_CPU_DATA, 0, cpu0.b, PAGE), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_CPU_DATA, 1, cpu1.b, PAGE), 0);
	assert_int_equal(f2t_capw_close(w), 0);
}

static char cap[96], fxt[96], json[96], txt[96];

static int setup(void **state)
{
	struct f2t_convert_opts o = { 0 };

	snprintf(dir, sizeof(dir), "/tmp/f2t-kev-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cap, sizeof(cap), "%s/k.cap", dir);
	snprintf(fxt, sizeof(fxt), "%s/k.fxt", dir);
	snprintf(json, sizeof(json), "%s/k.json", dir);
	snprintf(txt, sizeof(txt), "%s/k.txt", dir);
	write_capture(cap);
	assert_int_equal(f2t_convert_add_output(&o, fxt, NULL), 0);
	assert_int_equal(f2t_convert_add_output(&o, json, NULL), 0);
	assert_int_equal(f2t_convert_add_output(&o, txt, NULL), 0);
	assert_int_equal(f2t_convert(cap, &o), 0);
	return 0;
}

static int teardown(void **state)
{
	unlink(cap);
	unlink(fxt);
	unlink(json);
	unlink(txt);
	rmdir(dir);
	return 0;
}

/* ---- the FXT file, as one line per event record ---- */

struct lines {
	char v[128][160];
	int n;
};

static void render_arg(char *buf, size_t len, const struct fxt_arg *a)
{
	size_t n = strlen(buf);

	switch (a->type) {
	case FXT_ARG_STRING:
		snprintf(buf + n, len - n, " %.*s=%.*s", (int)a->name.len, a->name.s,
			 (int)a->str.len, a->str.s);
		break;
	case FXT_ARG_INT32:
		snprintf(buf + n, len - n, " %.*s=%d", (int)a->name.len, a->name.s, a->i32);
		break;
	case FXT_ARG_UINT32:
		snprintf(buf + n, len - n, " %.*s=%u", (int)a->name.len, a->name.s, a->u32);
		break;
	case FXT_ARG_UINT64:
		snprintf(buf + n, len - n, " %.*s=%llu", (int)a->name.len, a->name.s,
			 (unsigned long long)a->u64);
		break;
	case FXT_ARG_INT64:
		snprintf(buf + n, len - n, " %.*s=%lld", (int)a->name.len, a->name.s,
			 (long long)a->i64);
		break;
	default:
		snprintf(buf + n, len - n, " %.*s=?", (int)a->name.len, a->name.s);
	}
}

/*
 * "B name +10000" for the events on thread PID/TID ("X name +start..+end",
 * "C name#id +ts", args " key=value"), times relative to T0.
 */
static void fxt_lines(uint64_t pid, uint64_t tid, struct lines *out)
{
	size_t len;
	char *data = slurp(fxt, &len);
	struct fxt_reader *r = fxt_reader_new(data, len);
	struct fxt_record rec;
	int ret;

	assert_non_null(r);
	out->n = 0;
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		static const char letter[FXT_K_COUNT] = {
			[FXT_K_INSTANT] = 'I', [FXT_K_COUNTER] = 'C', [FXT_K_DURATION_BEGIN] = 'B',
			[FXT_K_DURATION_END] = 'E', [FXT_K_DURATION_COMPLETE] = 'X',
		};
		char *l;

		if (!letter[rec.kind] || rec.event.thread.pid != pid || rec.event.thread.tid != tid)
			continue;
		assert_true(out->n < 128);
		l = out->v[out->n++];
		snprintf(l, 160, "%c %.*s", letter[rec.kind], (int)rec.event.name.len,
			 rec.event.name.s);
		if (rec.kind == FXT_K_COUNTER)
			snprintf(l + strlen(l), 160 - strlen(l), "#%llu",
				 (unsigned long long)rec.event.extra);
		snprintf(l + strlen(l), 160 - strlen(l), " +%llu",
			 (unsigned long long)(rec.event.ts - T0));
		if (rec.kind == FXT_K_DURATION_COMPLETE)
			snprintf(l + strlen(l), 160 - strlen(l), "..+%llu",
				 (unsigned long long)(rec.event.extra - T0));
		for (unsigned int i = 0; i < rec.nargs; i++)
			render_arg(l, 160, &rec.args[i]);
	}
	if (ret < 0)
		fail_msg("%s: %s", fxt, fxt_reader_error(r, NULL));
	fxt_reader_free(r);
	free(data);
}

static void expect_lines(uint64_t pid, uint64_t tid, const char *const *want, int n)
{
	struct lines got;

	fxt_lines(pid, tid, &got);
	for (int i = 0; i < n || i < got.n; i++) {
		const char *g = i < got.n ? got.v[i] : "(nothing)";
		const char *x = i < n ? want[i] : "(nothing)";

		if (strcmp(g, x))
			fail_msg("thread %llu/%llu, event %d: got \"%s\", expected \"%s\"",
				 (unsigned long long)pid, (unsigned long long)tid, i, g, x);
	}
}

#define EXPECT(pid, tid, ...)                                                       \
	do {                                                                        \
		static const char *const want[] = { __VA_ARGS__ };                   \
		expect_lines(pid, tid, want, (int)(sizeof(want) / sizeof(want[0]))); \
	} while (0)

static void test_graph_nesting(void **state)
{
	/* Each slice from its entry record to its exit record, nested as called. */
	EXPECT(100, 100,
	       "B do_sys_openat2 +10000",
	       "B getname +10100",
	       "E getname +10300",
	       "B kmem_cache_alloc +10400",
	       "E kmem_cache_alloc +10600",
	       "E do_sys_openat2 +11000",
	       "I getname +11100 caller=do_sys_openat2",
	       "I xfs_foo +11200",
	       "I 0xffffffff90000000 +11300 caller=__x64_sys_openat");
}

static void test_graph_started_inside(void **state)
{
	/*
	 * openat()'s entry predates the trace: one whole slice ending at its
	 * exit, long enough to hold getname (its 420 ns would not), starting
	 * just before it so no viewer takes it for getname's child.
	 */
	EXPECT(101, 101,
	       "B getname +10050",
	       "E getname +10150",
	       "X __x64_sys_openat +10049..+10500");
}

static void test_graph_lost_exit(void **state)
{
	/* getname's exit was lost: it ends with its caller, unnamed. */
	EXPECT(102, 102,
	       "B do_sys_openat2 +12000",
	       "B getname +12100",
	       "E  +12500",
	       "E do_sys_openat2 +12500");
}

static void test_idle_task_calls(void **state)
{
	/* pid 0 is every CPU's idle task: its calls go to CPU 0's own thread. */
	EXPECT(F2T_PSEUDO_PID, F2T_PSEUDO_IDLE_TID(0),
	       "B do_idle +14000",
	       "E do_idle +14100");
}

static void test_irq_slices(void **state)
{
	/* The unmatched exit at +9000 ends nothing. */
	EXPECT(F2T_PSEUDO_PID, F2T_PSEUDO_IRQ_TID(0),
	       "B SOFTIRQ (TIMER) +12000 vec=1",
	       "B IRQ (virtio0) +12010 irq=24",
	       "E  +12020 ret=handled",
	       "E  +12030");
}

static void test_idle_counter(void **state)
{
	EXPECT(F2T_PSEUDO_PID, F2T_PSEUDO_PID,
	       "C cpu_idle#0 +13000 cpu0=1",
	       "C cpu_frequency#0 +13200 cpu0=2400000",
	       "C cpu_idle#0 +13500 cpu0=-1");
}

static void test_pseudo_names(void **state)
{
	size_t len;
	char *data = slurp(fxt, &len);
	struct fxt_reader *r = fxt_reader_new(data, len);
	struct fxt_record rec;
	int found = 0;

	while (fxt_reader_next(r, &rec) > 0) {
		if (rec.kind != FXT_K_KERNEL_OBJECT)
			continue;
		if (rec.kobj.koid == F2T_PSEUDO_PID && rec.kobj.obj_type == FXT_OBJ_PROCESS &&
		    rec.kobj.name.len == 4 && !memcmp(rec.kobj.name.s, "CPUs", 4))
			found |= 1;
		if (rec.kobj.koid == F2T_PSEUDO_IRQ_TID(0) && rec.kobj.name.len == 8 &&
		    !memcmp(rec.kobj.name.s, "irq cpu0", 8))
			found |= 2;
		if (rec.kobj.koid == F2T_PSEUDO_IDLE_TID(0) && rec.kobj.name.len == 9 &&
		    !memcmp(rec.kobj.name.s, "swapper/0", 9))
			found |= 4;
	}
	fxt_reader_free(r);
	free(data);
	assert_int_equal(found, 7);
}

static void expect_in(const char *text, const char *what, const char *s)
{
	if (!strstr(text, s))
		fail_msg("%s lacks: %s", what, s);
}

static void test_text(void **state)
{
	char *t = slurp(txt, NULL);

	/* The tracers' own text after the event name; modules as %ps shows them. */
	expect_in(t, "text", "function: getname <-do_sys_openat2\n");
	expect_in(t, "text", "function: xfs_foo\n");
	expect_in(t, "text", "function: 0xffffffff90000000 <-__x64_sys_openat\n");
	expect_in(t, "text", "funcgraph_entry:               |  do_sys_openat2() {\n");
	expect_in(t, "text", "funcgraph_entry:               |    getname() {\n");
	expect_in(t, "text", "funcgraph_exit:   0.200 us    |    } /* getname */\n");
	expect_in(t, "text", "funcgraph_exit:   1.000 us    |  } /* do_sys_openat2 */\n");
	expect_in(t, "text", "irq_handler_entry: irq=24 name=virtio0\n");
	expect_in(t, "text", "softirq_entry: vec=1 [action=TIMER]\n");
	expect_in(t, "text", "cpu_idle: state=1 cpu_id=0\n");
	expect_in(t, "text", "[001] .....  1000.000013: cpu_frequency: state=2400000 cpu_id=0\n");
	expect_in(t, "text", "worker-100     (    100) [000] .....  1000.000011: function: getname");
	free(t);
}

static void test_json(void **state)
{
	char *j = slurp(json, NULL);

	expect_in(j, "JSON", "{\"name\":\"do_sys_openat2\",\"cat\":\"function_graph\",\"ph\":\"B\","
			     "\"ts\":1000000010.000,\"pid\":100,\"tid\":100}");
	expect_in(j, "JSON", "{\"name\":\"getname\",\"cat\":\"function_graph\",\"ph\":\"E\","
			     "\"ts\":1000000010.300,\"pid\":100,\"tid\":100}");
	expect_in(j, "JSON", "{\"name\":\"__x64_sys_openat\",\"cat\":\"function_graph\",\"ph\":\"X\","
			     "\"ts\":1000000010.049,\"pid\":101,\"tid\":101,\"dur\":0.451}");
	expect_in(j, "JSON", "{\"name\":\"getname\",\"cat\":\"function\",\"ph\":\"i\",\"s\":\"t\","
			     "\"ts\":1000000011.100,\"pid\":100,\"tid\":100,"
			     "\"args\":{\"caller\":\"do_sys_openat2\"}}");
	expect_in(j, "JSON", "{\"name\":\"IRQ (virtio0)\",\"cat\":\"irq\",\"ph\":\"B\","
			     "\"ts\":1000000012.010,\"pid\":2147418112,\"tid\":2147422208,"
			     "\"args\":{\"irq\":24}}");
	expect_in(j, "JSON", "{\"name\":\"cpu_idle\",\"cat\":\"power\",\"ph\":\"C\","
			     "\"ts\":1000000013.500,\"pid\":2147418112,\"tid\":2147418112,"
			     "\"args\":{\"cpu0\":-1}}");
	expect_in(j, "JSON", "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2147418112,"
			     "\"tid\":2147422208,\"args\":{\"name\":\"irq cpu0\"}}");
	/* Function lines stay in the text; irq and idle ones do not (drawn from traceEvents). */
	expect_in(j, "JSON", "funcgraph_exit:   0.200 us    |    } /* getname */\\n");
	assert_null(strstr(j, "irq_handler_entry"));
	assert_null(strstr(j, "cpu_idle: "));
	expect_in(j, "JSON", "{\"name\":\"cpu_frequency\",\"cat\":\"power\",\"ph\":\"C\","
			     "\"ts\":1000000013.200,\"pid\":2147418112,\"tid\":2147418112,"
			     "\"args\":{\"cpu0\":2400000}}");
	assert_null(strstr(j, "cpu_frequency: "));
	expect_in(j, "JSON", "\"kernel_lines_not_in_text\":8");
	expect_in(j, "JSON", "\"funcgraph_exits_without_entry\":1,");
	free(j);
}

/*
 * A symbol table whose function and module names run to 20 KB each: more
 * than the whole line the text source makes room for (four sub-buffers).
 * Each name is cut to F2T_FUNCTEXT_MAX_NAME (511) bytes in the text; the
 * other outputs take the conversion without error.
 */
#define LONG_NAME 20000

static void test_long_names(void **state)
{
	char *ksyms = malloc(2 * LONG_NAME + 256), *t, *want = malloc(1200);
	char out[4][96], f511[512], m510[511];
	struct f2t_convert_opts o = { 0 };
	struct f2t_capw *w;
	struct page cpu0;
	struct ids id;
	size_t n;

	assert_non_null(ksyms);
	assert_non_null(want);
	memset(f511, 'f', 511);
	f511[511] = '\0';
	memset(m510, 'm', 510);
	m510[510] = '\0';
	n = (size_t)sprintf(ksyms, "ffffffff81100000 T ");
	memset(ksyms + n, 'f', LONG_NAME);
	n += LONG_NAME;
	n += (size_t)sprintf(ksyms + n, "\nffffffff81100400 T getname\nffffffffc0000000 t xfs_foo\t[");
	memset(ksyms + n, 'm', LONG_NAME);
	n += LONG_NAME;
	n += (size_t)sprintf(ksyms + n, "]\n");
	for (int i = 0; i < 4; i++)
		snprintf(out[i], sizeof(out[i]), "%s/long.%s", dir,
			 (const char *[]){ "cap", "txt", "json", "fxt" }[i]);

	w = f2t_capw_open(out[0], false);
	capture_start(w, "clock=mono\nncpus=1\nsubbuf_size=4096\n", &id);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_TASKS, 0, "100 100 worker\n", 15), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_KALLSYMS, 0, ksyms, n), 0);
	page_init(&cpu0);
	entry(&cpu0, &id, 10000, 100, DO_SYS_OPENAT2, 0);
	entry(&cpu0, &id, 10100, 100, XFS_FOO, 1);
	exit_(&cpu0, &id, 10300, 100, XFS_FOO, 1, 5000, 5200);
	exit_(&cpu0, &id, 11000, 100, DO_SYS_OPENAT2, 0, 5000, 6000);
	function(&cpu0, &id, 11100, 100, GETNAME, DO_SYS_OPENAT2 + 0x40);
	page_close(&cpu0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_CPU_DATA, 0, cpu0.b, PAGE), 0);
	assert_int_equal(f2t_capw_close(w), 0);

	for (int i = 1; i < 4; i++)
		assert_int_equal(f2t_convert_add_output(&o, out[i], NULL), 0);
	assert_int_equal(f2t_convert(out[0], &o), 0);
	t = slurp(out[1], NULL);
	/* 511 bytes of each name: the function's, and "[" and 510 of the module's. */
	snprintf(want, 1200, "funcgraph_entry:               |  %s() {\n", f511);
	expect_in(t, "text", want);
	snprintf(want, 1200, "funcgraph_entry:               |    xfs_foo [%s() {\n", m510);
	expect_in(t, "text", want);
	snprintf(want, 1200, "funcgraph_exit:   0.200 us    |    } /* xfs_foo [%s */\n", m510);
	expect_in(t, "text", want);
	snprintf(want, 1200, "function: getname <-%s\n", f511);
	expect_in(t, "text", want);
	free(t);
	for (int i = 0; i < 4; i++)
		unlink(out[i]);
	free(ksyms);
	free(want);
}

/* A one-CPU capture for pid 100 (worker) at PATH, up to its formats. */
static struct f2t_capw *one_cpu_capture(const char *path, struct ids *id)
{
	struct f2t_capw *w = f2t_capw_open(path, false);

	capture_start(w, "clock=mono\nncpus=1\nsubbuf_size=4096\n", id);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_TASKS, 0, "100 100 worker\n", 15), 0);
	return w;
}

/* Ends W with CPU0's page, converts PATH_CAP into OUT and returns what OUT holds. */
static char *convert_one_cpu(struct f2t_capw *w, struct page *cpu0, const char *path_cap,
			     const char *out)
{
	struct f2t_convert_opts o = { 0 };
	char *text;

	page_close(cpu0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_CPU_DATA, 0, cpu0->b, PAGE), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	assert_int_equal(f2t_convert_add_output(&o, out, NULL), 0);
	assert_int_equal(f2t_convert(path_cap, &o), 0);
	text = slurp(out, NULL);
	unlink(path_cap);
	unlink(out);
	return text;
}

/*
 * A softirq_entry whose print format names the action with a %ps of vec,
 * and a symbol at vec's value: libtraceevent sizes its symbol map at its
 * first lookup, so the symbols must be in before the decoder asks the print
 * format for the softirq's name (it did not: a later lookup read past the
 * map and printed from a wild pointer, found by fuzzing), and also when the
 * conversion has a width ("%10ps", which libtraceevent looks up all the same).
 */
static void check_softirq_named_by_symbol(const char *conversion)
{
	const char ksyms[] = "0000000000000001 T tasklet_action\nffffffff81000000 T _stext\n";
	char path[512], path_cap[96], path_json[96], fmt[256], *text;
	struct f2t_capw *w;
	struct page cpu0;
	struct ids id;
	size_t len;

	snprintf(path_cap, sizeof(path_cap), "%s/ps.path_cap", dir);
	snprintf(path_json, sizeof(path_json), "%s/ps.json", dir);
	w = one_cpu_capture(path_cap, &id);
	fixture_path(path, sizeof(path), "irq.softirq_entry.format");
	text = slurp(path, &len);
	len = (size_t)(strstr(text, "print fmt: ") - text);
	len += (size_t)snprintf(fmt, sizeof(fmt), "print fmt: \"vec=%%u [action=%s]\", REC->vec, REC->vec\n",
				conversion);
	assert_true(len < 4096);
	strcpy(strstr(text, "print fmt: "), fmt);
	assert_int_equal(f2t_capw_add2(w, F2T_CAP_EVENT_FORMAT, 0, "irq", 4, text, len), 0);
	id.soft_entry = (uint16_t)atoi(strstr(text, "\nID: ") + 5);
	free(text);
	id.soft_exit = add_format(w, "irq", "softirq_exit");
	assert_int_equal(f2t_capw_add(w, F2T_CAP_KALLSYMS, 0, ksyms, strlen(ksyms)), 0);
	page_init(&cpu0);
	small(&cpu0, id.soft_entry, 12000, 100, 1, 0, 12);
	small(&cpu0, id.soft_exit, 12030, 100, 1, 0, 12);
	text = convert_one_cpu(w, &cpu0, path_cap, path_json);
	expect_in(text, "JSON", "{\"name\":\"SOFTIRQ (tasklet_action)\",\"cat\":\"irq\",\"ph\":\"B\"");
	free(text);
}

static void test_symbols_before_the_first_lookup(void **state)
{
	check_softirq_named_by_symbol("%ps");
	check_softirq_named_by_symbol("%10ps");
}

/*
 * A %s of a field that is no array and as wide as a pointer, whatever its
 * declared type, is a kernel string to libtraceevent, looked up in the
 * printk formats: those go in before the record is printed (the same sizing
 * at the first lookup as above).  Its conversion comes after a %d, so the
 * pairing of conversions and arguments is what finds it.
 */
static void test_printk_string_of_a_long_field(void **state)
{
	const char fmt[] =
		"name: strptr\n"
		"ID: 500\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned long msg;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"n=%d msg=%s\", REC->n, REC->msg\n";
	const char printk[] = "0xffffffff82000000 : \"hello from printk\"\n";
	char path_cap[96], path_txt[96], *t;
	struct f2t_capw *w;
	struct page cpu0;
	struct rec r;
	struct ids id;

	snprintf(path_cap, sizeof(path_cap), "%s/printk.path_cap", dir);
	snprintf(path_txt, sizeof(path_txt), "%s/printk.txt", dir);
	w = one_cpu_capture(path_cap, &id);
	assert_int_equal(f2t_capw_add2(w, F2T_CAP_EVENT_FORMAT, 0, "test", 5, fmt, strlen(fmt)), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_KALLSYMS, 0, kallsyms, strlen(kallsyms)), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_PRINTK_FORMATS, 0, printk, strlen(printk)), 0);
	page_init(&cpu0);
	r = common(500, 100);
	put32(&r, 8, 7);
	put64(&r, 16, 0xffffffff82000000ull);
	page_add(&cpu0, 12000, r.b, 24);
	t = convert_one_cpu(w, &cpu0, path_cap, path_txt);
	expect_in(t, "text", "strptr: n=7 msg=hello from printk\n");
	free(t);
}

static void check_duration(uint64_t ns, const char *want)
{
	char buf[64];
	struct textline l = { .buf = buf };

	f2t_functext_duration(&l, ns);
	buf[l.len] = '\0';
	if (strcmp(buf, want))
		fail_msg("%llu ns: \"%s\", expected \"%s\"", (unsigned long long)ns, buf, want);
}

static void test_duration_column(void **state)
{
	/* trace_print_graph_duration(): at most seven digits, then " us ", padded. */
	check_duration(0, "0.000 us    ");
	check_duration(12345, "12.345 us   ");
	check_duration(1234567, "1234.567 us ");
	check_duration(12345678, "12345.67 us ");
	check_duration(123456789, "123456.7 us ");
	check_duration(1234567890, "1234567 us  ");
	check_duration(123456789012, "123456789 us ");
}

/* tl_int() against printf, which it stands in for, around every digit count. */
static void test_int_columns_as_printf(void **state)
{
	int64_t vals[80];
	size_t nv = 0;

	for (int64_t p = 1; p <= INT64_MAX / 10; p *= 10) {
		vals[nv++] = p - 1;
		vals[nv++] = p;
		vals[nv++] = p + 1;
		vals[nv++] = -p;
	}
	vals[nv++] = INT64_MAX;
	vals[nv++] = INT64_MIN;
	for (size_t i = 0; i < nv; i++) {
		for (size_t width = 0; width < 24; width++) {
			const char *fmt[] = { "%-*lld", "%0*lld", "%*lld" };

			for (int align = TL_LEFT; align <= TL_RIGHT; align++) {
				char buf[64], want[64];
				struct textline l = { .buf = buf };

				if (align == TL_ZERO && vals[i] < 0)
					continue;	/* zero-padded columns are never negative */
				tl_int(&l, vals[i], width, align);
				buf[l.len] = '\0';
				snprintf(want, sizeof(want), fmt[align + 1], (int)width, (long long)vals[i]);
				if (strcmp(buf, want))
					fail_msg("%lld width %zu align %d: \"%s\", printf \"%s\"",
						 (long long)vals[i], width, align, buf, want);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph_nesting),
		cmocka_unit_test(test_graph_started_inside),
		cmocka_unit_test(test_graph_lost_exit),
		cmocka_unit_test(test_idle_task_calls),
		cmocka_unit_test(test_irq_slices),
		cmocka_unit_test(test_idle_counter),
		cmocka_unit_test(test_pseudo_names),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_symbols_before_the_first_lookup),
		cmocka_unit_test(test_printk_string_of_a_long_field),
		cmocka_unit_test(test_duration_column),
		cmocka_unit_test(test_int_columns_as_printf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
