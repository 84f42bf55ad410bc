// SPDX-License-Identifier: MIT
/*
 * The Perfetto packet builders, each fed facts made up here.  The tests
 * check what the bytes must say on their own (framing, a few fields); what
 * every field decodes to is checked by tests/integration/perfetto_protoc.sh,
 * which runs this program with PF_DUMP_DIR set, so that each builder's
 * output is saved as DIR/NAME.pb, and decodes each with protoc against the
 * hand-written tests/fixtures/perfetto/NAME.txt.
 *
 * Also the whole writer, fed events through the pipeline (its decisions:
 * compact or whole, clocks; a print event as it is or its items, as the
 * model says), saved as writer.pb.
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

#include "logged.h"
#include "model/profile.h"
#include "model/tasks.h"
#include "perfetto/pf_fields.h"
#include "pipeline/pipeline.h"
#include "perfetto/pf_ftrace.h"
#include "perfetto/pf_packets.h"
#include "perfetto/pf_samples.h"
#include "perfetto/pf_track.h"
#include "symbols/maps.h"

/* Saves @b as DIR/@name.pb when PF_DUMP_DIR names a directory. */
static void dump(const struct pb_buf *b, const char *name)
{
	const char *dir = getenv("PF_DUMP_DIR");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.pb", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(b->p, 1, b->len, f), b->len);
	assert_int_equal(fclose(f), 0);
}

/* @b is whole Trace.packet fields: key 0x0a, a length, that many bytes, again. */
static unsigned int count_packets(const struct pb_buf *b)
{
	unsigned int n = 0;
	size_t i = 0;

	while (i < b->len) {
		uint64_t len = 0;
		unsigned int shift = 0;

		assert_int_equal(b->p[i++], 0x0a);
		do {
			assert_true(i < b->len);
			len |= (uint64_t)(b->p[i] & 0x7f) << shift;
			shift += 7;
		} while (b->p[i++] & 0x80);
		assert_true(len <= b->len - i);
		i += len;
		n++;
	}
	return n;
}

static void test_system_info(void **state)
{
	struct f2t_trace_info info = {
		.kernel = "6.1.0-test", .machine = "x86_64", .ncpus = 4, .page_size = 4096,
		.recorder = "ftrace2trace 9.9",
	};
	struct pb_buf b = { 0 };

	pf_system_info(&b, &info);
	assert_int_equal(count_packets(&b), 1);
	/* Trace.packet, then (after the length) TracePacket.system_info: 45 << 3 | 2 = 0x16a */
	assert_memory_equal(b.p + 2, "\xea\x02", 2);
	dump(&b, "system_info");
	pb_buf_free(&b);
}

static void test_clock_snapshot(void **state)
{
	struct pb_buf b = { 0 };

	pf_clock_snapshot(&b, &(struct pf_clocks){ .boottime = 1000, .monotonic = 900,
						   .realtime = 5000 });
	/* REALTIME unknown: left out. */
	pf_clock_snapshot(&b, &(struct pf_clocks){ .boottime = 7, .monotonic = 7 });
	assert_int_equal(count_packets(&b), 2);
	dump(&b, "clock_snapshot");
	pb_buf_free(&b);
}

static void test_defaults(void **state)
{
	struct f2t_sampling s = { .event = "cpu-clock", .type = 1, .config = 0, .freq = 99 };
	struct f2t_sampling raw = { .event = "r1a8", .type = 4, .config = 0x1a8, .freq = 10 };
	struct pb_buf b = { 0 };

	pf_seq_defaults(&b, PF_SEQ_TRACKS, PF_CLOCK_MONOTONIC, NULL);
	pf_seq_defaults(&b, PF_SEQ_SAMPLES, PF_CLOCK_MONOTONIC, &s);
	/* An event Perfetto has no counter for: named by type and config. */
	pf_seq_defaults(&b, PF_SEQ_SAMPLES, 0, &raw);
	assert_int_equal(count_packets(&b), 3);
	dump(&b, "defaults");
	pb_buf_free(&b);
}

static void test_process_tree(void **state)
{
	static const char snap[] = "100 100 bash\n101 100 worker\n0 0 swapper/0\n200 200 sleep\n";
	/* 300 is not in the table: left out, as the idle task is. */
	static const int32_t tids[] = { 100, 101, 0, 200, 300 };
	struct f2t_tasks *t = f2t_tasks_new();
	struct pb_buf b = { 0 };
	int bad = 0;

	assert_non_null(t);
	assert_int_equal(f2t_tasks_load_snapshot(t, snap, strlen(snap), &bad), 4);
	pf_process_tree(&b, 12345, t, tids, sizeof(tids) / sizeof(tids[0]));
	assert_int_equal(count_packets(&b), 1);
	dump(&b, "process_tree");
	pb_buf_free(&b);
	f2t_tasks_free(t);
}

static void test_ftrace_stats(void **state)
{
	static const struct f2t_cpu_stats cpus[] = {
		{ .cpu = 0, .entries = 1, .overrun = 2, .commit_overrun = 3, .bytes = 4,
		  .dropped = 5, .read = 6 },
		{ .cpu = 1, .read = 300 },
	};
	struct pb_buf b = { 0 };

	pf_ftrace_stats(&b, 10, true, cpus, 2);
	pf_ftrace_stats(&b, 20, false, cpus, 2);
	assert_int_equal(count_packets(&b), 2);
	dump(&b, "ftrace_stats");
	pb_buf_free(&b);
}

/* The bundle's pieces appended to @b, as the writer hands them to its output; their count. */
static int flush(struct pf_bundle *bb, struct pb_buf *b)
{
	struct iovec iov[PF_BUNDLE_PIECES];
	int n = pf_bundle_pieces(bb, PF_SEQ_FTRACE, iov);

	for (int i = 0; i < n; i++)
		pb_raw(b, iov[i].iov_base, iov[i].iov_len);
	pf_bundle_clear(bb);
	return n;
}

static void test_bundle(void **state)
{
	struct pf_bundle bb;
	struct pb_buf b = { 0 };
	struct f2t_event sw1 = {
		.kind = F2T_EV_SWITCH, .pid = 10,
		.sw = { .prev_pid = 10, .next_pid = 20, .next_prio = 120, .prev_comm = "a",
			.next_comm = "b", .prev_state_raw = 1 },
	};
	struct f2t_event sw2 = {
		.kind = F2T_EV_SWITCH, .pid = 20,
		.sw = { .prev_pid = 20, .next_pid = 10, .next_prio = 100, .prev_comm = "b",
			.next_comm = "a", .prev_state_raw = 0x100 },
	};
	struct f2t_event wake = {
		.kind = F2T_EV_WAKING, .pid = 20,
		.wake = { .pid = 10, .prio = 120, .target_cpu = 3, .comm = "a" },
	};
	struct f2t_event full = {
		.kind = F2T_EV_SWITCH, .pid = 0, .cpu = 1,
		.sw = { .prev_pid = 0, .prev_prio = 120, .next_pid = 30, .next_prio = 120,
			.prev_comm = "swapper/1", .next_comm = "c", .prev_state_raw = 0 },
	};
	struct f2t_event newtask = {
		.kind = F2T_EV_FORK, .pid = 30,
		.fork = { .parent_pid = 30, .child_pid = 31, .clone_thread = 1,
			  .clone_flags = 0x3d0f00, .parent_comm = "c", .child_comm = "c" },
	};
	struct f2t_event idle = {
		.kind = F2T_EV_CPU_IDLE, .power = { .state = 4294967295u, .cpu_id = 1 },
	};

	assert_int_equal(pf_bundle_init(&bb, 1), 0);
	/* Delta timestamps: 1000, then +500; wakings count from 0 on their own. */
	assert_int_equal(pf_bundle_switch(&bb, 1000, 1, &sw1), 0);
	assert_int_equal(pf_bundle_waking(&bb, 1200, &wake), 0);
	assert_int_equal(pf_bundle_switch(&bb, 1500, 0x100, &sw2), 0);
	assert_int_equal(pf_bundle_event(&bb, 900, &full), 1);
	assert_int_equal(pf_bundle_event(&bb, 1600, &newtask), 1);
	assert_int_equal(pf_bundle_event(&bb, 1700, &idle), 1);
	assert_int_equal(pf_bundle_print(&bb, 1800, 10, "B|10|work", 9), 0);
	bb.lost = true;
	/* The head, the whole events, then each of the ten columns after its key and length. */
	assert_int_equal(flush(&bb, &b), PF_BUNDLE_PIECES);
	/* Flushed: empty, so a second flush writes nothing. */
	assert_int_equal(bb.nevents, 0);
	assert_int_equal(bb.events.len + bb.col[PF_COL_SWITCH_TS].len, 0);
	assert_int_equal(flush(&bb, &b), 0);
	assert_int_equal(count_packets(&b), 1);
	dump(&b, "bundle");
	pb_buf_free(&b);
	pf_bundle_fini(&bb);
}

/*
 * Compact events past the room made at a time (a thousand): every value in
 * its column.  A delta of 1000 = 111 1101000: 0x68 | 0x80, then 7.
 */
static void test_bundle_columns_grow(void **state)
{
	struct pf_bundle bb;
	struct f2t_event sw = {
		.kind = F2T_EV_SWITCH, .pid = 5, .cpu = 0, .comm_words = false,
		.sw = { .prev_pid = 5, .prev_prio = 120, .next_pid = 5, .next_prio = 120,
			.prev_comm = "a", .next_comm = "a" },
	};
	enum { N = 3000 };

	assert_int_equal(pf_bundle_init(&bb, 0), 0);
	for (int i = 1; i <= N; i++)
		assert_int_equal(pf_bundle_switch(&bb, 1000ull * i, 1, &sw), 0);
	assert_int_equal(bb.nevents, N);
	assert_int_equal(bb.col[PF_COL_SWITCH_TS].len, 2 * N);
	assert_int_equal(bb.col[PF_COL_SWITCH_PID].len, N);
	for (int i = 0; i < N; i++) {
		assert_memory_equal(bb.col[PF_COL_SWITCH_TS].p + 2 * i, "\xe8\x07", 2);
		assert_int_equal(bb.col[PF_COL_SWITCH_STATE].p[i], 1);
		assert_int_equal(bb.col[PF_COL_SWITCH_PID].p[i], 5);
		assert_int_equal(bb.col[PF_COL_SWITCH_PRIO].p[i], 120);
		assert_int_equal(bb.col[PF_COL_SWITCH_COMM].p[i], 0);	/* "a", the first comm */
	}
	assert_int_equal(bb.col[PF_COL_WAKING_TS].len, 0);
	pf_bundle_fini(&bb);
}

struct sample_seq {
	struct pf_samples *ps;
	struct pb_buf *b;
};

/* The profile's definitions straight to the sequence, as the writer takes them. */
static int to_samples(void *ctx, const struct f2t_item *it)
{
	struct sample_seq *q = ctx;

	return pf_samples_item(q->ps, q->b, it);
}

/* @ev through the profile stage and into the sequence. */
static int add_sample(struct f2t_profile *prof, struct sample_seq *q, const struct f2t_event *ev)
{
	struct f2t_item it = { .kind = F2T_ITEM_SAMPLE, .ts = ev->ts, .ev = ev,
			       .track = { F2T_TRACK_THREAD, ev->sample.tgid, ev->pid, 0 } };
	int ret = f2t_profile_stack(prof, it.track.pid, ev->sample.frames, ev->sample.nframes,
				    true, &it, to_samples, q, &it.stack);

	return ret ? ret : pf_samples_item(q->ps, q->b, &it);
}

static void test_samples(void **state)
{
	struct f2t_sampling s = { .event = "cpu-clock", .type = 1, .config = 0, .freq = 99 };
	static const uint8_t kernel_bid[] = { 0xab, 0xcd };
	static const struct f2t_module kernel = { .id = 1 }, libc = { .id = 2 };
	const struct f2t_frame frames[] = {
		{ .ip = 0xffffffff81000010, .func = "schedule", .module = "[kernel.kallsyms]",
		  .mod = &kernel, .mod_id = 1, .build_id = kernel_bid, .build_id_len = 2,
		  .kernel = true, .map_start = 0xffffffff81000000, .map_len = 0x1000 },
		{ .ip = 0x7f0000001234, .func = "read", .module = "/lib/libc.so.6", .mod = &libc,
		  .mod_id = 2, .map_start = 0x7f0000001000, .map_len = 0x2000 },
		{ .ip = 0x5000, .func = "jitted", .module = "[jit]" },
	};
	struct f2t_event ev = {
		.kind = F2T_EV_SAMPLE, .ts = 777, .cpu = 1, .pid = 43,
		.sample = { .tgid = 42, .nframes = 3, .frames = frames },
	};
	struct f2t_profile *prof = f2t_profile_new();
	struct pb_buf b = { 0 };
	struct sample_seq q = { pf_samples_new(&s, true), &b };

	assert_non_null(prof);
	assert_non_null(q.ps);
	assert_int_equal(add_sample(prof, &q, &ev), 0);
	/* The same stack again: nothing new to intern. */
	ev.ts = 778;
	assert_int_equal(add_sample(prof, &q, &ev), 0);
	/* Its two outer frames alone: a new callstack of known frames. */
	ev.ts = 779;
	ev.sample.frames = frames + 1;
	ev.sample.nframes = 2;
	assert_int_equal(add_sample(prof, &q, &ev), 0);
	/* No frames at all: no callstack, and no empty one. */
	ev.ts = 780;
	ev.sample.nframes = 0;
	assert_int_equal(add_sample(prof, &q, &ev), 0);
	assert_int_equal(pf_samples_lost(q.ps, &b, 800, 5), 0);
	/* The sequence's defaults first, then five packets. */
	assert_int_equal(count_packets(&b), 6);
	dump(&b, "samples");
	pb_buf_free(&b);
	pf_samples_free(q.ps);
	f2t_profile_free(prof);
}

/*
 * Off-CPU slices: a begin with the interned callstack, name, category and
 * arguments (the derived ones left out), an end; the same slice again
 * interns nothing; a slice before the sequence clock's 0 says MONOTONIC.
 */
static void test_offcpu(void **state)
{
	struct f2t_sampling s = { .event = "cpu-clock", .type = 1, .config = 0, .freq = 99 };
	static const struct f2t_module kernel = { .id = 1 };
	const struct f2t_frame frames[] = {
		{ .ip = 0xffffffff81000010, .func = "schedule", .module = "[kernel.kallsyms]",
		  .mod = &kernel, .mod_id = 1, .kernel = true, .map_start = 0xffffffff81000000,
		  .map_len = 0x1000 },
		{ .ip = 0xffffffff81000230, .func = "pipe_read", .module = "[kernel.kallsyms]",
		  .mod = &kernel, .mod_id = 1, .kernel = true, .map_start = 0xffffffff81000000,
		  .map_len = 0x1000 },
	};
	const struct f2t_arg args[] = {
		{ .name = "state", .type = F2T_ARG_STR, .str = { "S", 1 } },
		{ .name = "waker_tid", .type = F2T_ARG_I32, .i = 44 },
		{ .name = "waker", .type = F2T_ARG_STR, .derived = true, .str = { "pipewr", 6 } },
	};
	struct f2t_event ev = { .kind = F2T_EV_OFFCPU, .ts = 1500, .pid = 43 };
	struct f2t_item it = {
		.kind = F2T_ITEM_COMPLETE, .ts = 1200, .end_ts = 1500, .ev = &ev,
		.track = { F2T_TRACK_THREAD, 42, 43, 0 }, .category = { "off-cpu", 7 },
		.name = { "S pipe_read", 11 }, .args = args, .nargs = 3,
	};
	struct f2t_profile *prof = f2t_profile_new();
	struct pb_buf b = { 0 };
	struct sample_seq q = { pf_samples_new(&s, true), &b };

	assert_non_null(prof);
	assert_non_null(q.ps);
	pf_samples_clock_base(q.ps, 1000);
	assert_int_equal(f2t_profile_stack(prof, 42, frames, 2, false, &it, to_samples, &q,
					   &it.stack), 0);
	assert_int_equal(pf_samples_offcpu(q.ps, &b, &it, 43), 0);
	/* Defaults, the sequence's clock, begin, end. */
	assert_int_equal(count_packets(&b), 4);
	it.ts = 1600;
	it.end_ts = 1700;
	assert_int_equal(pf_samples_offcpu(q.ps, &b, &it, 43), 0);
	it.ts = 900;
	it.end_ts = 1800;
	it.nargs = 1;
	assert_int_equal(pf_samples_offcpu(q.ps, &b, &it, 43), 0);
	assert_int_equal(count_packets(&b), 8);
	dump(&b, "offcpu");
	pb_buf_free(&b);
	pf_samples_free(q.ps);
	f2t_profile_free(prof);
}

static void test_tracks(void **state)
{
	struct pf_tracks *t = pf_tracks_new();
	struct pb_buf b = { 0 };
	struct f2t_arg args[2] = {
		{ .name = "value", .type = F2T_ARG_I64, .i = -3 },
		{ .name = "why", .type = F2T_ARG_STR, .str = { "no", 2 } },
	};
	struct f2t_item counter = {
		.kind = F2T_ITEM_COUNTER, .ts = 100, .track = { F2T_TRACK_THREAD, 42, 43, 0 },
		.name = { "queue", 5 }, .category = { "marker", 6 }, .args = args, .nargs = 1,
	};
	struct f2t_item begin = {
		.kind = F2T_ITEM_BEGIN, .ts = 110, .track = { F2T_TRACK_THREAD, 42, 43, 0 },
		.name = { "work", 4 }, .category = { "marker", 6 }, .args = args + 1, .nargs = 1,
	};
	struct f2t_item end = {
		.kind = F2T_ITEM_END, .ts = 120, .track = { F2T_TRACK_THREAD, 42, 43, 0 },
	};
	struct f2t_item async = {
		.kind = F2T_ITEM_ASYNC_BEGIN, .ts = 130, .track = { F2T_TRACK_THREAD, 42, 43, 0 },
		.name = { "load", 4 }, .category = { "marker", 6 }, .id = 7,
	};
	struct f2t_item name = {
		.kind = F2T_ITEM_NAME, .track = { F2T_TRACK_CPU_IDLE, 0x7fff0000, 0x7fff0101, 1 },
		.name = { "swapper/1", 9 },
	};
	struct f2t_item on_pseudo = {
		.kind = F2T_ITEM_INSTANT, .ts = 140,
		.track = { F2T_TRACK_CPU_IDLE, 0x7fff0000, 0x7fff0101, 1 },
		.name = { "do_idle", 7 }, .category = { "function", 8 },
	};

	assert_non_null(t);
	assert_int_equal(pf_tracks_item(t, &b, &counter), 0);
	/* The counter's process and counter track were described: 3 packets. */
	assert_int_equal(count_packets(&b), 3);
	assert_int_equal(pf_tracks_item(t, &b, &begin), 0);
	assert_int_equal(pf_tracks_item(t, &b, &end), 0);
	/* The thread's track once, then begin and end. */
	assert_int_equal(count_packets(&b), 6);
	assert_int_equal(pf_tracks_item(t, &b, &async), 0);
	assert_int_equal(pf_tracks_item(t, &b, &name), 0);
	assert_int_equal(count_packets(&b), 8);
	assert_int_equal(pf_tracks_item(t, &b, &on_pseudo), 0);
	assert_int_equal(count_packets(&b), 10);
	dump(&b, "tracks");
	pb_buf_free(&b);
	pf_tracks_free(t);
}

/* The Perfetto file @rec's events @ev make, through the pipeline as a conversion runs it. */
static void convert(struct f2t_recording *rec, const struct f2t_event *ev, size_t n,
		    struct pb_buf *b)
{
	struct f2t_pipeline *p = f2t_pipeline_new(rec);
	FILE *tmp = tmpfile();
	long len;

	assert_non_null(tmp);
	assert_non_null(p);
	assert_int_equal(f2t_pipeline_add_out(p, f2t_out_fdopen(fileno(tmp), "test.pftrace"),
					      F2T_FMT_PERFETTO), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(f2t_pipeline_event(p, &ev[i]), 0);
	assert_int_equal(f2t_pipeline_finish(p, NULL), 0);
	f2t_pipeline_free(p);
	len = lseek(fileno(tmp), 0, SEEK_END);
	assert_true(len > 0 && pb_room(b, (size_t)len));
	assert_int_equal(pread(fileno(tmp), b->p, (size_t)len, 0), len);
	b->len = (size_t)len;
	fclose(tmp);
}

/* A recording of tasks 10 (app) and 11 (worker), BOOTTIME 500 ns ahead of MONOTONIC. */
static struct f2t_recording recording(void)
{
	static const char snap[] = "10 10 app\n11 10 worker\n";
	static const struct f2t_cpu_stats cpus[] = { { .cpu = 0, .read = 12 } };
	struct f2t_recording rec = {
		.info = {
			.kernel = "6.1.0", .machine = "x86_64", .ncpus = 2, .page_size = 4096,
			.recorder = "ftrace2trace 9.9", .start_ns = 1000, .stop_ns = 9000,
			.host = "box", .kernel_version = "#1 SMP PREEMPT_DYNAMIC",
			.boot_id = "0b7e5c1e-0000-4000-8000-000000000001", .cpu_model = "Test CPU",
			.tz_offset_min = -300, .tz_known = true, .cmdline = "./app --fast",
			.clock = "mono",
			.sync_start = { .mono_ns = 1000, .boottime_ns = 1500, .realtime_ns = 7000 },
			.sync_end = { .mono_ns = 9000, .boottime_ns = 9500, .realtime_ns = 15000 },
		},
		.cpu_stats = cpus, .ncpu_stats = 1,
	};
	int bad = 0;

	rec.tasks = f2t_tasks_new();
	assert_non_null(rec.tasks);
	assert_int_equal(f2t_tasks_load_snapshot(rec.tasks, snap, strlen(snap), &bad), 2);
	return rec;
}

/* The writer's choices, one event each. */
static void test_writer(void **state)
{
	struct f2t_recording rec = recording();
	const struct f2t_event ev[] = {
		/* cpu0's first switch: whole (trace processor would drop a compact one). */
		{ .ts = 2000, .cpu = 0, .pid = 0, .kind = F2T_EV_SWITCH,
		  .sw = { .prev_pid = 0, .prev_prio = 120, .prev_comm = "swapper/0",
			  .next_pid = 10, .next_prio = 120, .next_comm = "app" } },
		/* woken by the task running there: compact */
		{ .ts = 2100, .cpu = 0, .pid = 10, .kind = F2T_EV_WAKING,
		  .wake = { .pid = 11, .prio = 120, .target_cpu = 1, .comm = "worker" } },
		/* on a CPU whose running task is not known: whole */
		{ .ts = 2200, .cpu = 1, .pid = 0, .kind = F2T_EV_WAKING,
		  .wake = { .pid = 11, .prio = 120, .target_cpu = 1, .comm = "worker" } },
		/* the task the last switch put there goes: compact */
		{ .ts = 2300, .cpu = 0, .pid = 10, .kind = F2T_EV_SWITCH,
		  .sw = { .prev_pid = 10, .prev_prio = 120, .prev_comm = "app", .prev_state_raw = 1,
			  .next_pid = 0, .next_prio = 120, .next_comm = "swapper/0" } },
		/* another task than the last switch put there (a scheduling gap): whole */
		{ .ts = 2400, .cpu = 0, .pid = 11, .kind = F2T_EV_SWITCH,
		  .sw = { .prev_pid = 11, .prev_prio = 120, .prev_comm = "worker",
			  .prev_state_raw = 0x100, .next_pid = 10, .next_prio = 120, .next_comm = "app" } },
		/* markers: a begin naming the wrong process, its end, an end with
		 * nothing open, and text that is no marker */
		{ .ts = 2500, .cpu = 0, .pid = 10, .kind = F2T_EV_PRINT, .print = { "B|99|work", 9 } },
		{ .ts = 2600, .cpu = 0, .pid = 10, .kind = F2T_EV_PRINT, .print = { "E", 1 } },
		{ .ts = 2700, .cpu = 0, .pid = 10, .kind = F2T_EV_PRINT, .print = { "E", 1 } },
		{ .ts = 2800, .cpu = 0, .pid = 10, .kind = F2T_EV_PRINT, .print = { "hello", 5 } },
		{ .ts = 2900, .cpu = 1, .pid = 0, .kind = F2T_EV_IRQ_ENTRY,
		  .irq = { .irq = 5, .name = "eth0" } },
		{ .ts = 3000, .cpu = 1, .pid = 0, .kind = F2T_EV_LOST },
		{ .ts = 3100, .cpu = 0, .pid = 10, .kind = F2T_EV_FORK,
		  .fork = { .parent_pid = 10, .child_pid = 12, .clone_thread = 1,
			    .clone_flags = 0x3d0f00, .parent_comm = "app", .child_comm = "app" } },
		/* what sched_waking said again, kept: where it was recorded is a fact (pf_writer.c) */
		{ .ts = 3200, .cpu = 0, .pid = 10, .kind = F2T_EV_WAKEUP,
		  .wake = { .pid = 12, .prio = 120, .target_cpu = 0, .comm = "app" } },
	};
	struct pb_buf b = { 0 };

	convert(&rec, ev, sizeof(ev) / sizeof(ev[0]), &b);
	/* SystemInfo, the identity's metadata, ClockSnapshot, defaults,
	 * FtraceStats; a thread's track and an instant; two bundles;
	 * FtraceStats, the process tree, the counts' track and instant:
	 * 5 + 2 + 2 + 4. */
	assert_int_equal(count_packets(&b), 13);
	dump(&b, "writer");
	pb_buf_free(&b);
	f2t_tasks_free(rec.tasks);
}

/* A suspend while recording moves BOOTTIME against MONOTONIC: said, once. */
static void test_writer_suspend(void **state)
{
	struct f2t_recording rec = recording();
	const struct f2t_event ev = {
		.ts = 2000, .cpu = 0, .pid = 10, .kind = F2T_EV_WAKING,
		.wake = { .pid = 11, .prio = 120, .target_cpu = 0, .comm = "worker" },
	};
	struct pb_buf b = { 0 };

	rec.info.sync_end.boottime_ns += 2000000000ull;
	logged_start();
	convert(&rec, &ev, 1, &b);
	assert_non_null(strstr(logged(), "test.pftrace: CLOCK_BOOTTIME ran 2.000 s ahead of CLOCK_MONOTONIC"));
	assert_null(strstr(strstr(logged(), "ran 2.000 s") + 1, "ran 2.000 s"));
	logged_stop();
	/* Without one, nothing is said. */
	rec.info.sync_end.boottime_ns -= 2000000000ull;
	logged_start();
	convert(&rec, &ev, 1, &b);
	assert_null(strstr(logged(), "CLOCK_BOOTTIME"));
	logged_stop();
	pb_buf_free(&b);
	f2t_tasks_free(rec.tasks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_info),
		cmocka_unit_test(test_clock_snapshot),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_process_tree),
		cmocka_unit_test(test_ftrace_stats),
		cmocka_unit_test(test_bundle),
		cmocka_unit_test(test_bundle_columns_grow),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_offcpu),
		cmocka_unit_test(test_tracks),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_writer_suspend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
