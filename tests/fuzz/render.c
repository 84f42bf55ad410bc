// SPDX-License-Identifier: MIT
/*
 * The renderers: events of every kind a capture's ring buffer holds, named
 * from a kernel symbol table made of the input, into every output (FXT,
 * Perfetto, JSON, systrace text) and the scheduling report.
 *
 * The input is read front to back (bytes past its end read as zero):
 *
 *   u8 flags          bit 0: no symbol table at all (names by address);
 *                     bit 1: the table ends in up to 255 raw input bytes;
 *                     bit 2: samples too (below)
 *   u8 nsyms          1 + nsyms % 32 symbols, each:
 *     u16 name_len    any length up to 65535 (the whole table is cut at
 *                     TABLE_MAX bytes)
 *     u16 mod_len     0: the kernel's own; else "[MODULE]" of this length
 *     u8 type         the type letter, as given
 *     u8 n            the first n % 17 bytes of the name come from the
 *                     input, the rest is a letter repeated
 *   [raw table bytes]
 *   [samples, with flags bit 2: u8 n, then 1 + n % 16 samples, each u8 k,
 *    u8 u, then k % 8 kernel frames and u % 8 user ones, a u8 each that
 *    picks a symbol; the user frames are named by a JIT map of the
 *    table's names (make_samples())]
 *   events, each:
 *     u8 which        the event format (which % formats), every one of the
 *                     fixed capture's: sched, task, ftrace (function,
 *                     function_graph, print), irq, softirq, power
 *     u8 how          bit 0: CPU; bits 1-3: the task (idle, a known one,
 *                     an unknown pid)
 *     u16 delta       nanoseconds since the CPU's previous event
 *     then each field of the format: an address field (ip, parent_ip,
 *     func) is u8 k, the address of symbol k % nsyms plus k / 32 (255: a
 *     raw u64); a __data_loc string or a char[] at the record's end is u8 n
 *     and n bytes; any other field its bytes as they are
 *
 * Events fill 4096-byte sub-buffers of the kernel's layout (header_page),
 * up to PAGES_MAX per CPU.  The formats come from tests/fuzz/base.cap and
 * are parsed once per process, as in the ringbuf target; each input gets
 * its own symbol table (rawdec reads it on first use) and task table.
 * Samples come with base.cap's frame-pointer PERF_INFO, its maps and
 * build-ids, interleaved with the ring's events as a capture's are.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer/asan_interface.h>
#include <traceevent/event-parse.h>

#include "capture/capture.h"
#include "pipeline/convert.h"
#include "report/report.h"
#include "source/capture/capsrc.h"
#include "source/input.h"
#include "source/perf/perfsrc.h"
#include "source/source.h"
#include "util/out.h"
#include "fuzz.h"

#define SUBBUF 4096
#define PAGES_MAX 8
#define TABLE_MAX (512 * 1024)
#define KBASE 0xffffffff81000000ull

static struct {
	struct fz_fixed f;
	struct tep_event **events;
	int nevents;
	struct f2t_convert_opts outputs;
} fx;

/* The input, read as a stream that gives zeros past its end. */
struct in {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct in *in, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t b = in->left ? (in->left--, *in->p++) : 0;

		v |= b << (8 * i);
	}
	return v;
}

static void open_fixed_capture(void)
{
	fz_fixed_open(&fx.f, false);
	fx.events = tep_list_events(fx.f.tep, TEP_EVENT_SORT_ID);
	while (fx.events && fx.events[fx.nevents])
		fx.nevents++;
	if (!fx.nevents)
		abort();
	/*
	 * libtraceevent's own function table stays empty: filled from one
	 * input's symbols, it would name the next inputs' addresses, and a
	 * finding would depend on what ran before it.  Its kallsyms parser is
	 * libtraceevent's business; ours is what names the events here.
	 */
	fx.f.tep_symbols = true;
	fz_convert_opts(&fx.outputs);
	if (f2t_convert_add_output(&fx.outputs, "-", "perfetto"))
		abort();
}

/* ---- the symbol table ---- */

struct table {
	char *b;
	size_t len;
	uint64_t addr[32];
	size_t name_at[32], name_len[32];	/* each symbol's name in b */
	unsigned int n;
};

static void put(struct table *t, const void *s, size_t n)
{
	if (n > TABLE_MAX - t->len)
		n = TABLE_MAX - t->len;
	memcpy(t->b + t->len, s, n);
	t->len += n;
}

/* N bytes: the first FROM_INPUT of them the input's, then LETTER. */
static void name(struct table *t, struct in *in, size_t n, size_t from_input, char letter)
{
	size_t i;

	if (n > TABLE_MAX - t->len)
		n = TABLE_MAX - t->len;
	for (i = 0; i < n && i < from_input; i++)
		t->b[t->len++] = (char)take(in, 1);
	/* One call, not a loop: a loop of 64 K was a fifth of each input's time. */
	memset(t->b + t->len, letter, n - i);
	t->len += n - i;
}

static void make_table(struct table *t, struct in *in, unsigned int flags)
{
	t->n = 1 + (unsigned int)take(in, 1) % 32;
	t->len = 0;
	for (unsigned int i = 0; i < t->n; i++) {
		size_t len = (size_t)take(in, 2), mod = (size_t)take(in, 2);
		char type = (char)take(in, 1), head[24];
		size_t from_input = (size_t)take(in, 1) % 17;

		t->addr[i] = KBASE + 0x100 * (uint64_t)i;
		snprintf(head, sizeof(head), "%016llx %c ", (unsigned long long)t->addr[i], type);
		put(t, head, strlen(head));
		t->name_at[i] = t->len;
		name(t, in, len, from_input, (char)('a' + i % 26));
		t->name_len[i] = t->len - t->name_at[i];
		if (mod) {
			put(t, "\t[", 2);
			name(t, in, mod, 0, (char)('A' + i % 26));
			put(t, "]", 1);
		}
		put(t, "\n", 1);
	}
	if (flags & 2) {
		size_t raw = (size_t)take(in, 1);

		for (size_t i = 0; i < raw && t->len < TABLE_MAX; i++)
			t->b[t->len++] = (char)take(in, 1);
	}
}

/* ---- the ring buffer ---- */

struct cpu {
	unsigned char page[SUBBUF];
	size_t len;
	uint64_t last;
	unsigned int pages;
};

static void page_start(struct cpu *c)
{
	memset(c->page, 0, sizeof(c->page));
	memcpy(c->page, &c->last, 8);
	c->len = 16;
}

static void page_flush(struct fz_cap *cap, struct cpu *c, uint32_t n)
{
	uint64_t commit = c->len - 16;

	if (c->len == 16)
		return;
	memcpy(c->page + 8, &commit, 8);
	fz_cap_add(cap, F2T_CAP_CPU_DATA, n, c->page, SUBBUF);
	c->pages++;
	page_start(c);
}

static bool is_address(const struct tep_format_field *f)
{
	return f->size == 8 && (!strcmp(f->name, "ip") || !strcmp(f->name, "parent_ip") ||
				!strcmp(f->name, "func"));
}

/* One record of EV in R (room for SUBBUF bytes): its length. */
static size_t record(unsigned char *r, const struct tep_event *ev, const struct table *t,
		     struct in *in, int32_t pid)
{
	size_t end = 0, tail;
	uint16_t id = (uint16_t)ev->id;

	for (struct tep_format_field *f = ev->format.common_fields; f; f = f->next)
		if ((size_t)f->offset + (size_t)f->size > end)
			end = (size_t)f->offset + (size_t)f->size;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC) && f->size &&
		    (size_t)f->offset + (size_t)f->size > end)
			end = (size_t)f->offset + (size_t)f->size;
		else if ((f->flags & TEP_FIELD_IS_DYNAMIC) && (size_t)f->offset + 4 > end)
			end = (size_t)f->offset + 4;
	if (end > 512)
		end = 512;
	memset(r, 0, end);
	tail = end;
	memcpy(r, &id, 2);
	r[2] = (uint8_t)take(in, 1);	/* common_flags */
	r[3] = (uint8_t)take(in, 1);	/* common_preempt_count */
	memcpy(r + 4, &pid, 4);
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		size_t off = (size_t)f->offset;

		if (f->flags & TEP_FIELD_IS_DYNAMIC || !f->size) {
			size_t n = (size_t)take(in, 1);
			uint32_t loc = (uint32_t)(n << 16 | tail);

			for (size_t i = 0; i < n && tail < 1024; i++)
				r[tail++] = (unsigned char)take(in, 1);
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && off + 4 <= end)
				memcpy(r + off, &loc, 4);
		} else if (is_address(f) && off + 8 <= end) {
			unsigned int k = (unsigned int)take(in, 1);
			uint64_t a = k == 255 ? take(in, 8) : t->addr[k % t->n] + k / 32;

			memcpy(r + off, &a, 8);
		} else {
			for (size_t i = 0; i < (size_t)f->size && off + i < end; i++)
				r[off + i] = (unsigned char)take(in, 1);
		}
	}
	return (tail + 3) & ~(size_t)3;
}

/* Appends a record of LEN bytes to C's page, LEN <= 1024. */
static void page_add(struct fz_cap *cap, struct cpu *c, uint32_t n, const unsigned char *r,
		     size_t len, uint32_t delta)
{
	size_t need = len + (len > 112 ? 8 : 4);
	uint32_t hdr;

	if (c->len + need > SUBBUF)
		page_flush(cap, c, n);
	if (len > 112) {
		uint32_t words = (uint32_t)len + 4;

		hdr = delta << 5;
		memcpy(c->page + c->len, &hdr, 4);
		memcpy(c->page + c->len + 4, &words, 4);
	} else {
		hdr = (uint32_t)(len / 4) | delta << 5;
		memcpy(c->page + c->len, &hdr, 4);
	}
	memcpy(c->page + c->len + need - len, r, len);
	c->len += need;
	c->last += delta;
}

static void make_pages(struct fz_cap *cap, const struct table *t, struct in *in)
{
	static struct cpu cpus[2];
	static unsigned char r[2048];
	static const int32_t pids[8] = { 0, 1, 2, 59, 60, 68, 424242, -1 };

	for (uint32_t n = 0; n < 2; n++) {
		cpus[n].last = 1000000000000ull;
		cpus[n].pages = 0;
		page_start(&cpus[n]);
	}
	while (in->left) {
		const struct tep_event *ev = fx.events[take(in, 1) % (unsigned int)fx.nevents];
		unsigned int how = (unsigned int)take(in, 1);
		uint32_t delta = (uint32_t)take(in, 2), n = how & 1;
		size_t len = record(r, ev, t, in, pids[(how >> 1) & 7]);

		if (cpus[n].pages == PAGES_MAX)
			break;
		page_add(cap, &cpus[n], n, r, len, delta);
	}
	for (uint32_t n = 0; n < 2; n++)
		if (cpus[n].pages < PAGES_MAX)
			page_flush(cap, &cpus[n], n);
}

/* ---- samples ---- */

/*
 * A perf ring of cpu-clock samples of the JIT map's task, as base.cap's
 * frame-pointer PERF_INFO describes them (IP, TID, TIME, CPU, PERIOD,
 * CALLCHAIN): each is u8 k, u8 u, then k kernel and u user frames, a u8
 * each naming a symbol of the table (the user ones through the JIT map,
 * which holds the same names).
 */
static void make_samples(struct fz_cap *cap, const struct table *t, struct in *in)
{
	enum { SAMPLE = 9, KERNEL = 1, USER = 2 };
	static uint64_t r[64];
	static struct fz_cap ring;
	const uint64_t ctx_kernel = (uint64_t)-128, ctx_user = (uint64_t)-512;
	unsigned int n = 1 + (unsigned int)take(in, 1) % 16;

	ring.len = 0;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = (unsigned int)take(in, 1) % 8, u = (unsigned int)take(in, 1) % 8;
		size_t w = 1, nr = 0;
		uint64_t *chain;

		r[w++] = 0x7f0000001000ull;				/* IP */
		r[w++] = 20112ull | 20112ull << 32;			/* pid, tid */
		r[w++] = 1000000000000ull + 1000 * (uint64_t)i;		/* TIME */
		r[w++] = i & 1;						/* CPU */
		r[w++] = 2004008;					/* PERIOD */
		chain = &r[w++];
		if (k)
			r[w + nr++] = ctx_kernel;
		for (unsigned int j = 0; j < k; j++)
			r[w + nr++] = t->addr[take(in, 1) % t->n] + 1;
		if (u)
			r[w + nr++] = ctx_user;
		for (unsigned int j = 0; j < u; j++)
			r[w + nr++] = 0x7f0000001000ull + 0x100 * (take(in, 1) % t->n) + 1;
		*chain = nr;
		w += nr;
		r[0] = SAMPLE | (uint64_t)(k ? KERNEL : USER) << 32 | (uint64_t)(8 * w) << 48;
		if (ring.len + 8 * w > ring.cap) {
			ring.cap = 2 * (ring.len + 8 * w);
			ring.b = realloc(ring.b, ring.cap);
			if (!ring.b)
				abort();
		}
		memcpy(ring.b + ring.len, r, 8 * w);
		ring.len += 8 * w;
	}
	fz_cap_add(cap, F2T_CAP_PERF_DATA, 0, ring.b, ring.len);
}

/* The table's names as a JIT map of the sampled task: "ADDR SIZE NAME" lines. */
static struct f2t_pid_text jit_map(const struct table *t)
{
	static char *map;
	static size_t cap;
	size_t len = 0, need = t->len + 32 * (size_t)t->n + 1;

	/* Grown, never shrunk: a fresh 512 KB block an input was a tenth of its time. */
	if (need > cap) {
		free(map);
		cap = need;
		map = malloc(cap);
		if (!map)
			abort();
	}
	for (unsigned int i = 0; i < t->n; i++) {
		len += (size_t)sprintf(map + len, "%llx 100 ",
				       (unsigned long long)(0x7f0000001000ull + 0x100 * i));
		memcpy(map + len, t->b + t->name_at[i], t->name_len[i]);
		len += t->name_len[i];
		map[len++] = '\n';
	}
	return (struct f2t_pid_text){ .pid = 20112, .text = map, .len = len };
}

/* ---- the conversion ---- */

/* IN through every output and the report. */
static void run(struct f2t_input *in)
{
	struct f2t_report_opts ro = { .format = F2T_REPORT_TEXT, .slow_ns = 1 };
	struct f2t_report *report = f2t_report_new(&ro, &in->rec);
	struct f2t_tap tap;
	struct f2t_out *out;

	if (!report)
		return;
	tap = f2t_report_tap(report);
	if (!f2t_convert_input(in, &fx.outputs, &tap)) {
		out = f2t_out_fdopen(STDOUT_FILENO, "report");
		if (out) {
			f2t_report_write(report, out);
			f2t_out_close(out);
		}
	}
	f2t_report_free(report);
}

/*
 * Ring-buffer pages, read with the fixed capture's formats and T's symbols,
 * and the capture's samples if it has any (their user frames named by the
 * JIT map of T's names).
 */
static void convert(const char *path, const struct table *t, bool no_table)
{
	struct f2t_text k = { .s = no_table ? NULL : t->b, .len = no_table ? 0 : t->len };
	struct f2t_pid_text jit = jit_map(t);
	struct f2t_source *srcs[2];
	struct f2t_input in;
	struct f2t_capr *cap;

	cap = fz_fixed_input(&fx.f, path, &in, &k);
	in.rec.jit_maps = &jit;
	in.rec.njit_maps = 1;
	if (in.events && (srcs[1] = f2t_perfsrc_open(cap, &in.rec, NULL))) {
		srcs[0] = in.events;
		in.events = f2t_source_interleave(srcs, 2);
	}
	if (in.events)
		run(&in);
	fz_fixed_close(&in, cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;
	static struct table t;
	struct in in = { data, size };
	unsigned int flags;

	if (!fx.f.base)
		open_fixed_capture();
	if (!t.b) {
		t.b = malloc(TABLE_MAX);
		if (!t.b)
			abort();
	}
	flags = (unsigned int)take(&in, 1);
	ASAN_UNPOISON_MEMORY_REGION(t.b, TABLE_MAX);
	make_table(&t, &in, flags);
	/*
	 * Reading past the table's end is ASan's to see: the rest of the
	 * buffer is poisoned (an exact-size copy an input, mapped and unmapped
	 * each time, had cost more than the copying).
	 */
	ASAN_POISON_MEMORY_REGION(t.b + t.len, TABLE_MAX - t.len);
	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	if (flags & 4) {
		fz_cap_add_base(&c, F2T_CAP_PERF_INFO, 0, 0);
		make_samples(&c, &t, &in);
	}
	make_pages(&c, &t, &in);
	fz_cap_end(&c);
	convert(fz_cap_file(c.b, c.len), &t, flags & 1);
	return 0;
}
