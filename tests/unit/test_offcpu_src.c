// SPDX-License-Identifier: MIT
/*
 * The off-CPU episodes (handed out by the perf source) on captures written
 * here by hand: episodes come out in order of the time the thread ran
 * again whatever order the ring held them in; the state letter, waker,
 * and the kernel and user stacks of the episode and its waker are where
 * the record says; the tracing's own
 * frames are dropped; malformed stack and episode records are refused,
 * naming the file and offset.  Records carry a user stack copy of their
 * own length after them; a capture from before (56-byte records) decodes
 * as it did.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture/capture.h"
#include "capture/offcpu_rec.h"
#include "source/perf/perfsrc.h"

static char path[64];

/* kallsyms naming the kernel addresses below (0x1000 + 0x100 * i). */
static const char ksyms[] = "ffffffff00001000 T bpf_trace_run4\n"
			    "ffffffff00001100 T __traceiter_sched_switch\n"
			    "ffffffff00001200 T __schedule\n"
			    "ffffffff00001300 T pipe_read\n"
			    "ffffffff00001400 T try_to_wake_up\n"
			    "ffffffff00001500 T pipe_write\n";

#define K(off) (0xffffffff00001000ull + (off) + 8)

static void put_stack(unsigned char *buf, size_t *len, uint32_t id, const uint64_t *ips,
		      uint32_t n)
{
	memcpy(buf + *len, &id, 4);
	memcpy(buf + *len + 4, &n, 4);
	memcpy(buf + *len + 8, ips, n * 8);
	*len += 8 + (size_t)n * 8;
}

/*
 * A capture with the episode records DATA (RECORD_SIZE bytes each, and
 * their stack copies) and the kernel stacks.
 */
static void write_capture_sized(const void *kstacks, size_t klen, const void *data, size_t dlen,
				size_t record_size)
{
	static const char counts[] = "episodes=2\ndropped_ring=3\ndropped_map=0\n"
				     "stack_collisions=1\nstacks_shortened=0\nstacks_reused=640\n"
				     "stacks_rechecked=10\nstacks_stale=2\n";
	char info[128];
	struct f2t_capw *w;

	snprintf(info, sizeof(info),
		 "record_size=%zu\nmin_ns=1000\nscope=command\nmax_depth=127\narch=x86_64\n",
		 record_size);
	snprintf(path, sizeof(path), "/tmp/f2t-test-offcpu-%d", (int)getpid());
	w = f2t_capw_open(path, false);
	assert_non_null(w);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_KALLSYMS, 0, ksyms, sizeof(ksyms) - 1), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_OFFCPU_INFO, 0, info, strlen(info)), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_OFFCPU_DATA, 0, data, dlen), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_OFFCPU_INFO, 1, counts, sizeof(counts) - 1), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_OFFCPU_STACKS, 0, kstacks, klen), 0);
	assert_int_equal(f2t_capw_close(w), 0);
}

static void write_capture(const void *kstacks, size_t klen, const void *data, size_t dlen)
{
	write_capture_sized(kstacks, klen, data, dlen, sizeof(struct f2t_offcpu_rec));
}

static struct f2t_offcpu_rec rec(uint64_t start, uint64_t end, uint32_t tid, uint32_t state,
				 int32_t kstack, uint32_t waker, int32_t wkstack)
{
	return (struct f2t_offcpu_rec){
		.start_ns = start, .end_ns = end, .tid = tid, .tgid = 100, .waker_tid = waker,
		.waker_tgid = 100, .kstack = kstack, .ustack = -14, .waker_kstack = wkstack,
		.waker_ustack = -14, .state = state, .cpu = 1,
	};
}

static struct f2t_source *open_it(struct f2t_capr **cap, struct f2t_recording *r)
{
	const struct f2t_cap_rec *k;

	*cap = f2t_capr_open(path);
	assert_non_null(*cap);
	memset(r, 0, sizeof(*r));
	r->path = path;
	k = f2t_capr_find(*cap, F2T_CAP_KALLSYMS, -1);
	r->kallsyms = (struct f2t_text){ k->data, k->len };
	return f2t_perfsrc_open(*cap, r, NULL);
}

/* The capture written last opens, and its first episode is refused as malformed. */
static void assert_first_refused(void)
{
	struct f2t_recording r;
	struct f2t_capr *cap;
	struct f2t_source *s = open_it(&cap, &r);
	struct f2t_event ev;

	assert_non_null(s);
	assert_int_equal(s->ops->next(s, &ev), -EINVAL);
	s->ops->close(s);
	f2t_capr_close(cap);
	unlink(path);
}

static void test_episodes_in_order_with_stacks(void **state)
{
	/* Stack 7: the tracing's frames, then __schedule, pipe_read; 9: the waker's. */
	uint64_t blocked[] = { K(0x000), K(0x100), K(0x200), K(0x300) };
	uint64_t waker[] = { K(0x400), K(0x500) };
	unsigned char stacks[256];
	size_t len = 0;
	struct f2t_offcpu_rec recs[] = {
		rec(1000, 50000, 11, F2T_OFFCPU_S, 7, 12, 9),
		rec(2000, 40000, 13, F2T_OFFCPU_D, -17, 0, -2),	/* ends first, read second */
	};
	struct f2t_recording r;
	struct f2t_capr *cap;
	struct f2t_source *s;
	struct f2t_stats st = { 0 };
	struct f2t_event ev;

	put_stack(stacks, &len, 7, blocked, 4);
	put_stack(stacks, &len, 9, waker, 2);
	write_capture(stacks, len, recs, sizeof(recs));
	s = open_it(&cap, &r);
	assert_non_null(s);

	assert_int_equal(s->ops->next(s, &ev), 1);
	assert_int_equal(ev.kind, F2T_EV_OFFCPU);
	assert_int_equal(ev.ts, 40000);
	assert_int_equal(ev.pid, 13);
	assert_int_equal(ev.offcpu.state, 'D');
	assert_int_equal(ev.offcpu.nframes, 0);	/* its stack was lost in the kernel */
	assert_int_equal(ev.offcpu.waker_tid, 0);

	assert_int_equal(s->ops->next(s, &ev), 1);
	assert_int_equal(ev.ts, 50000);
	assert_int_equal(ev.offcpu.start, 1000);
	assert_int_equal(ev.pid, 11);
	assert_int_equal(ev.offcpu.tgid, 100);
	assert_int_equal(ev.offcpu.state, 'S');
	assert_int_equal(ev.offcpu.nframes, 2);	/* the tracing's two frames dropped */
	assert_string_equal(ev.offcpu.frames[0].func, "__schedule");
	assert_string_equal(ev.offcpu.frames[1].func, "pipe_read");
	assert_true(ev.offcpu.frames[1].kernel);
	assert_int_equal(ev.offcpu.waker_tid, 12);
	assert_int_equal(ev.offcpu.waker_nframes, 2);
	assert_string_equal(ev.offcpu.waker_frames[0].func, "try_to_wake_up");
	assert_string_equal(ev.offcpu.waker_frames[1].func, "pipe_write");

	assert_int_equal(s->ops->next(s, &ev), 0);
	s->ops->counts(s, &st);
	assert_int_equal(st.offcpu_dropped, 3);
	assert_int_equal(st.offcpu_stacks_lost, 1);
	assert_int_equal(st.offcpu_stacks_missing, 0);
	assert_int_equal(st.offcpu_stacks_rechecked, 10);
	assert_int_equal(st.offcpu_stacks_stale, 2);
	s->ops->close(s);
	f2t_capr_close(cap);
	unlink(path);
}

/* Records with stack copies of their own lengths, and a 56-byte one of an older capture. */
static void test_records_with_stack_copies(void **state)
{
	unsigned char data[3 * sizeof(struct f2t_offcpu_rec) + 64];
	struct f2t_offcpu_rec a = rec(1000, 40000, 11, F2T_OFFCPU_S, -14, 0, -2);
	struct f2t_offcpu_rec b = rec(2000, 30000, 13, F2T_OFFCPU_D, -14, 0, -2);
	struct f2t_recording r;
	struct f2t_capr *cap;
	struct f2t_source *s;
	struct f2t_event ev;
	size_t len = 0;

	/* A 48-byte copy (a stack no unwinder here can use: no mappings), then none. */
	a.uip = 0x401000;
	a.usp = 0x7ffc0000;
	a.ucopy = 48;
	memcpy(data, &a, sizeof(a));
	memset(data + sizeof(a), 0xaa, 48);
	len = sizeof(a) + 48;
	memcpy(data + len, &b, sizeof(b));
	len += sizeof(b);
	write_capture(NULL, 0, data, len);
	s = open_it(&cap, &r);
	assert_non_null(s);
	assert_int_equal(s->ops->next(s, &ev), 1);
	assert_int_equal(ev.pid, 13);
	assert_int_equal(s->ops->next(s, &ev), 1);
	assert_int_equal(ev.pid, 11);
	assert_int_equal(ev.offcpu.state, 'S');
	assert_int_equal(s->ops->next(s, &ev), 0);
	s->ops->close(s);
	f2t_capr_close(cap);
	unlink(path);

	/* A copy longer than what is left of the data: refused. */
	a.ucopy = 64;
	memcpy(data, &a, sizeof(a));
	write_capture(NULL, 0, data, sizeof(a) + 56);
	assert_first_refused();

	/* An older capture's records: 56 bytes, up to cpu. */
	memcpy(data, &b, F2T_OFFCPU_REC_V1_BYTES);
	memcpy(data + F2T_OFFCPU_REC_V1_BYTES, &a, F2T_OFFCPU_REC_V1_BYTES);
	write_capture_sized(NULL, 0, data, 2 * F2T_OFFCPU_REC_V1_BYTES, F2T_OFFCPU_REC_V1_BYTES);
	s = open_it(&cap, &r);
	assert_non_null(s);
	assert_int_equal(s->ops->next(s, &ev), 1);
	assert_int_equal(ev.pid, 13);
	assert_int_equal(ev.offcpu.state, 'D');
	assert_int_equal(s->ops->next(s, &ev), 1);
	assert_int_equal(ev.pid, 11);
	assert_int_equal(ev.offcpu.start, 1000);
	assert_int_equal(s->ops->next(s, &ev), 0);
	s->ops->close(s);
	f2t_capr_close(cap);
	unlink(path);
}

static void test_stack_longer_than_its_record_is_refused(void **state)
{
	unsigned char bad[16] = { 0 };
	uint32_t id = 1, n = 5;	/* five frames promised, one given */
	struct f2t_offcpu_rec one = rec(1, 2, 11, F2T_OFFCPU_S, 1, 0, -2);
	struct f2t_recording r;
	struct f2t_capr *cap;

	memcpy(bad, &id, 4);
	memcpy(bad + 4, &n, 4);
	write_capture(bad, sizeof(bad), &one, sizeof(one));
	assert_null(open_it(&cap, &r));
	assert_int_equal(errno, EINVAL);
	f2t_capr_close(cap);
	unlink(path);
}

static void test_partial_episode_record_is_refused(void **state)
{
	struct f2t_offcpu_rec two[2] = { rec(1, 2, 11, F2T_OFFCPU_S, -14, 0, -2),
					 rec(3, 4, 11, F2T_OFFCPU_S, -14, 0, -2) };

	write_capture("", 0, two, sizeof(two) - 8);
	assert_first_refused();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_episodes_in_order_with_stacks),
		cmocka_unit_test(test_records_with_stack_copies),
		cmocka_unit_test(test_stack_longer_than_its_record_is_refused),
		cmocka_unit_test(test_partial_episode_record_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
