// SPDX-License-Identifier: MIT
/*
 * A flight recorder's window of perf records (record/window.h with the
 * sampler's keep functions): what a snapshot's capture gets of reads made
 * before and inside its window.  Samples and losses of the past are gone,
 * the records that name later samples stay, a loss inside the window is
 * still there to be counted, and every CPU's history comes before its
 * chunks.  Then the conversion's side (source/perf): a snapshot's samples
 * and losses before META's flight_from_ns are left out (a read that began
 * before the window is kept whole), those inside are counted; so are the
 * off-CPU episodes begun before it.
 */
#include <errno.h>
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
#include "capture/offcpu_rec.h"
#include "capture/perf_rec.h"
#include "record/sampler.h"
#include "record/window.h"
#include "source/perf/perfsrc.h"

static char path[64];

static int setup(void **state)
{
	snprintf(path, sizeof(path), "/tmp/f2t-test-window-%d", (int)getpid());
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

struct buf {
	unsigned char p[4096];
	size_t len;
};

static void put(struct buf *b, const void *v, size_t n)
{
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void header(struct buf *b, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	put(b, &h, sizeof(h));
}

/* A sample of F2T_SAMPLE_TYPE with no frames: ip, pid/tid, time, cpu, period, nr. */
static void sample(struct buf *b, uint32_t tid, uint64_t ts)
{
	header(b, PERF_RECORD_SAMPLE, 8 + 6 * 8);
	put64(b, 0x401000);
	put64(b, (uint64_t)tid << 32 | tid);
	put64(b, ts);
	put64(b, 0);
	put64(b, 1000000);
	put64(b, 0);
}

/* The sample_id_all trailer: pid, tid, time, cpu, res. */
static void trailer(struct buf *b, uint32_t tid, uint64_t ts)
{
	put64(b, (uint64_t)tid << 32 | tid);
	put64(b, ts);
	put64(b, 0);
}

static void comm(struct buf *b, uint32_t tid, const char *name, uint64_t ts)
{
	char n[16] = "";

	snprintf(n, sizeof(n), "%s", name);
	header(b, PERF_RECORD_COMM, 8 + 8 + 16 + F2T_PERF_ID_TRAILER);
	put64(b, (uint64_t)tid << 32 | tid);
	put(b, n, 16);
	trailer(b, tid, ts);
}

static void lost(struct buf *b, uint64_t n, uint64_t ts)
{
	header(b, PERF_RECORD_LOST, 8 + 16 + F2T_PERF_ID_TRAILER);
	put64(b, 1);
	put64(b, n);
	trailer(b, 0, ts);
}

/* What one CPU's PERF_DATA records hold, in file order: "S100 C110 L5@150 ...". */
static void walk(const struct f2t_capr *r, uint32_t cpu, char *out, size_t len)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < r->nrecs; i++) {
		const unsigned char *p = r->recs[i].data;

		if (r->recs[i].type != F2T_CAP_PERF_DATA || r->recs[i].arg != cpu)
			continue;
		for (size_t off = 0; off + 8 <= r->recs[i].len;) {
			struct perf_event_header h;
			uint64_t ts = 0;

			memcpy(&h, p + off, sizeof(h));
			assert_true(f2t_perf_rec_time(p + off, h.size, h.type, F2T_SAMPLE_TYPE, &ts));
			if (h.type == PERF_RECORD_LOST)
				at += (size_t)snprintf(out + at, len - at, "L%llu@%llu ",
						       (unsigned long long)f2t_perf_u64(p + off + 16),
						       (unsigned long long)ts);
			else
				at += (size_t)snprintf(out + at, len - at, "%c%llu ",
						       h.type == PERF_RECORD_SAMPLE ? 'S' : 'C',
						       (unsigned long long)ts);
			off += h.size;
		}
	}
}

static struct f2t_capr *written(struct f2t_window *w)
{
	struct f2t_capw *cw = f2t_capw_open(path, false);

	assert_non_null(cw);
	assert_int_equal(f2t_window_write(w, cw), 0);
	assert_int_equal(f2t_capw_close(cw), 0);
	return f2t_capr_open(path);
}

static void test_past_losses_dropped_window_losses_kept(void **state)
{
	struct f2t_window w = { .type = F2T_CAP_PERF_DATA, .keep = f2t_sampler_keep_past };
	struct buf old = { .len = 0 }, now = { .len = 0 }, other = { .len = 0 };
	struct f2t_capr *r;
	char text[256];

	/* CPU 0 read twice: once long before the window, once inside it. */
	sample(&old, 7, 100);
	comm(&old, 7, "worker", 110);
	lost(&old, 5, 150);
	sample(&old, 7, 200);
	sample(&now, 7, 300);
	lost(&now, 7, 350);
	comm(&now, 8, "helper", 360);
	sample(&now, 8, 400);
	/* CPU 1 read once, before the window: only its name stays. */
	comm(&other, 9, "idle-ish", 120);
	sample(&other, 9, 130);
	assert_int_equal(f2t_window_add(&w, 0, old.p, old.len, 200), 0);
	assert_int_equal(f2t_window_add(&w, 1, other.p, other.len, 130), 0);
	assert_int_equal(f2t_window_add(&w, 0, now.p, now.len, 400), 0);
	assert_int_equal(f2t_window_trim(&w, 250), 0);
	r = written(&w);
	assert_non_null(r);
	walk(r, 0, text, sizeof(text));
	assert_string_equal(text, "C110 S300 L7@350 C360 S400 ");
	walk(r, 1, text, sizeof(text));
	assert_string_equal(text, "C120 ");
	f2t_capr_close(r);

	/* The next snapshot: the history again, the chunks gone with the last one. */
	r = written(&w);
	walk(r, 0, text, sizeof(text));
	assert_string_equal(text, "C110 ");
	f2t_capr_close(r);
	assert_int_equal(w.bytes, 2 * (8 + 8 + 16 + F2T_PERF_ID_TRAILER));
	f2t_window_free(&w);
}

static void test_prune_keeps_tasks(void **state)
{
	struct f2t_window w = { .type = F2T_CAP_PERF_DATA, .keep = f2t_sampler_keep_past };
	struct buf b = { .len = 0 };
	struct f2t_capr *r;
	char text[128];

	comm(&b, 7, "worker", 10);
	/* An MMAP2 record's type with a COMM's body: the keep functions read only types. */
	header(&b, PERF_RECORD_MMAP2, 8 + 8 + 16 + F2T_PERF_ID_TRAILER);
	put(&b, b.p + 8, 8 + 16 + F2T_PERF_ID_TRAILER);
	sample(&b, 7, 30);
	assert_int_equal(f2t_window_add(&w, 0, b.p, b.len, 30), 0);
	assert_int_equal(f2t_window_trim(&w, 100), 0);
	r = written(&w);
	walk(r, 0, text, sizeof(text));
	assert_string_equal(text, "C10 C10 ");	/* the COMM and the MMAP2 */
	f2t_capr_close(r);
	/* Mappings read anew from /proc: the MMAP2 goes, the name stays. */
	f2t_window_prune(&w, f2t_sampler_keep_tasks);
	r = written(&w);
	walk(r, 0, text, sizeof(text));
	assert_string_equal(text, "C10 ");
	f2t_capr_close(r);
	f2t_window_free(&w);
}

/* Past the memory allowed, the oldest chunks go first, whatever their CPU. */
static void test_limit_lets_the_oldest_go(void **state)
{
	struct f2t_window w = { .type = F2T_CAP_PERF_DATA, .keep = f2t_sampler_keep_past };
	struct buf a = { .len = 0 }, b = { .len = 0 }, c = { .len = 0 };
	struct f2t_capr *r;
	char text[128];

	sample(&a, 7, 100);
	sample(&b, 8, 200);
	sample(&c, 7, 300);
	assert_int_equal(f2t_window_add(&w, 0, a.p, a.len, 100), 0);
	assert_int_equal(f2t_window_add(&w, 0, c.p, c.len, 300), 0);
	assert_int_equal(f2t_window_add(&w, 1, b.p, b.len, 200), 0);
	assert_int_equal(f2t_window_limit(&w, 3 * a.len), 0);
	assert_int_equal(f2t_window_limit(&w, 2 * a.len - 1), 1);
	r = written(&w);
	walk(r, 0, text, sizeof(text));
	assert_string_equal(text, "S300 ");
	walk(r, 1, text, sizeof(text));
	assert_string_equal(text, "");
	f2t_capr_close(r);
	f2t_window_free(&w);
}

static void test_conversion_leaves_out_the_past(void **state)
{
	char info[256];
	static const char meta[] = "clock=mono\nstart_ns=250\nflight_from_ns=250\n";
	struct buf b = { .len = 0 };
	struct f2t_stats st = { 0 };
	struct f2t_recording rec = { .path = path };
	struct f2t_capw *w = f2t_capw_open(path, false);
	struct f2t_source *src;
	struct f2t_capr *cap;
	struct f2t_event ev;
	uint64_t first = 0;
	int n = 0, ret;

	snprintf(info, sizeof(info), "event=cpu-clock\ntype=1\nconfig=0\nfreq=999\n"
		 "sample_type=%llu\nregs_user=0\nstack_user=0\ncallgraph=fp\nscope=all\n"
		 "arch=x86_64\n", (unsigned long long)F2T_SAMPLE_TYPE);
	/* One read that straddles the window's start, as a kept chunk can. */
	sample(&b, 7, 200);
	lost(&b, 5, 220);
	sample(&b, 7, 240);
	sample(&b, 7, 300);
	lost(&b, 7, 350);
	sample(&b, 7, 400);
	assert_non_null(w);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_META, 0, meta, sizeof(meta) - 1), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_PERF_INFO, 0, info, strlen(info)), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_PERF_DATA, 0, b.p, b.len), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	cap = f2t_capr_open(path);
	assert_non_null(cap);
	src = f2t_perfsrc_open(cap, &rec, NULL);
	assert_non_null(src);
	while ((ret = src->ops->next(src, &ev)) > 0) {
		assert_int_equal(ev.kind, F2T_EV_SAMPLE);
		first = first ? first : ev.ts;
		n++;
	}
	assert_int_equal(ret, 0);
	src->ops->counts(src, &st);
	assert_int_equal(n, 2);
	assert_int_equal(first, 300);
	assert_int_equal(st.samples_lost, 7);
	src->ops->close(src);
	f2t_capr_close(cap);
}

static void test_conversion_leaves_out_episodes_begun_before(void **state)
{
	static const char info[] = "record_size=88\nmin_ns=1000\nscope=all\nmax_depth=127\n"
				   "ustack_copy=0\nustack_fit=1\narch=x86_64\n";
	static const char meta[] = "clock=mono\nstart_ns=250\nflight_from_ns=250\n";
	/* Begun before the window and ended in it; begun and ended in it. */
	struct f2t_offcpu_rec eps[2] = {
		{ .start_ns = 100, .end_ns = 300, .tid = 7, .tgid = 7, .state = F2T_OFFCPU_S,
		  .kstack = -ENODATA, .ustack = -EFAULT, .waker_kstack = -ENOENT,
		  .waker_ustack = -ENOENT },
		{ .start_ns = 260, .end_ns = 320, .tid = 8, .tgid = 8, .state = F2T_OFFCPU_D,
		  .kstack = -ENODATA, .ustack = -EFAULT, .waker_kstack = -ENOENT,
		  .waker_ustack = -ENOENT },
	};
	struct f2t_recording rec = { .path = path };
	struct f2t_capw *w = f2t_capw_open(path, false);
	struct f2t_source *src;
	struct f2t_capr *cap;
	struct f2t_event ev;
	int n = 0, ret;

	assert_int_equal(sizeof(eps[0]), 88);
	assert_non_null(w);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_META, 0, meta, sizeof(meta) - 1), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_OFFCPU_INFO, 0, info, sizeof(info) - 1), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_OFFCPU_DATA, 0, eps, sizeof(eps)), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	cap = f2t_capr_open(path);
	assert_non_null(cap);
	src = f2t_perfsrc_open(cap, &rec, NULL);
	assert_non_null(src);
	while ((ret = src->ops->next(src, &ev)) > 0) {
		assert_int_equal(ev.kind, F2T_EV_OFFCPU);
		assert_int_equal(ev.pid, 8);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 1);
	src->ops->close(src);
	f2t_capr_close(cap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_past_losses_dropped_window_losses_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_prune_keeps_tasks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limit_lets_the_oldest_go, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conversion_leaves_out_the_past, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conversion_leaves_out_episodes_begun_before,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
