// SPDX-License-Identifier: MIT
/*
 * The sample scope: perf records built as the kernel lays them out, fed in
 * time order; samples of the command's or -p processes (threads, forked
 * descendants) are kept, every other one is left out and counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>

#include <cmocka.h>

#include "capture/perf_rec.h"
#include "source/perf/sample_filter.h"

static unsigned char rec[64];

/* A record of TYPE with the u32 fields given; returns its size. */
static size_t record(uint32_t type, uint16_t misc, const uint32_t *w, size_t n)
{
	struct perf_event_header h = { .type = type, .misc = misc,
				       .size = (uint16_t)(sizeof(h) + 4 * n) };

	memset(rec, 0, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), w, 4 * n);
	return h.size;
}

/* 1 if the sample of PID/TID is left out; F2T_SAMPLE_TYPE puts ip first. */
static int sample(struct f2t_sample_filter *s, uint32_t pid, uint32_t tid)
{
	uint32_t w[] = { 0x1000, 0, pid, tid, 0, 0 };

	return f2t_sample_filter_skip(s, rec, record(PERF_RECORD_SAMPLE, 0, w, 6), F2T_SAMPLE_TYPE);
}

static int fork_(struct f2t_sample_filter *s, uint32_t pid, uint32_t ppid, uint32_t tid)
{
	uint32_t w[] = { pid, ppid, tid, ppid, 0, 0 };

	return f2t_sample_filter_skip(s, rec, record(PERF_RECORD_FORK, 0, w, 6), F2T_SAMPLE_TYPE);
}

static int comm(struct f2t_sample_filter *s, uint32_t pid, bool exec)
{
	uint32_t w[] = { pid, pid, 0x6e727562 /* "burn" */, 0 };

	return f2t_sample_filter_skip(s, rec,
				     record(PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
					    w, 4),
				     F2T_SAMPLE_TYPE);
}

static void test_nothing_to_filter(void **state)
{
	/* Captures of older recorders: the kernel kept the scope already. */
	errno = EBADF;
	assert_null(f2t_sample_filter_new("command", NULL));
	assert_int_equal(errno, 0);
	assert_null(f2t_sample_filter_new(NULL, NULL));
	assert_int_equal(errno, 0);
	/* --sample-all and -a */
	assert_null(f2t_sample_filter_new("all", "12"));
	assert_int_equal(errno, 0);
	/* No filter keeps every sample, counts nothing. */
	assert_int_equal(sample(NULL, 99, 99), 0);
	assert_int_equal(f2t_sample_filter_left_out(NULL), 0);
}

static void test_malformed_roots(void **state)
{
	static const char *const bad[] = { "", "x", "12,", ",12", "1,,2", "0", "-3", " 5",
					   "5 ", "99999999999", "12;13" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_null(f2t_sample_filter_new("pids", bad[i]));
		assert_int_equal(errno, EINVAL);
	}
	/* One command has one root; an unknown scope is not guessed at. */
	assert_null(f2t_sample_filter_new("command", "12,13"));
	assert_int_equal(errno, EINVAL);
	assert_null(f2t_sample_filter_new("threads", "12"));
	assert_int_equal(errno, EINVAL);
}

static void test_command_from_its_exec(void **state)
{
	struct f2t_sample_filter *s = f2t_sample_filter_new("command", "100");

	assert_non_null(s);
	/* Before its exec the child is the recorder, held at its gate. */
	assert_int_equal(sample(s, 100, 100), 1);
	assert_int_equal(comm(s, 100, false), 0);	/* prctl(PR_SET_NAME): no exec */
	assert_int_equal(sample(s, 100, 100), 1);
	assert_int_equal(comm(s, 200, true), 0);	/* another process's exec */
	assert_int_equal(sample(s, 100, 100), 1);
	assert_int_equal(comm(s, 100, true), 0);
	assert_int_equal(sample(s, 100, 100), 0);
	/* Its threads, also those the recording saw start. */
	assert_int_equal(fork_(s, 100, 100, 101), 0);
	assert_int_equal(sample(s, 100, 101), 0);
	assert_int_equal(sample(s, 100, 555), 0);
	/* Everything else on the CPUs: the idle task, other processes. */
	assert_int_equal(sample(s, 0, 0), 1);
	assert_int_equal(sample(s, 200, 200), 1);
	assert_int_equal(sample(s, 200, 201), 1);
	/* A later exec of the command changes nothing. */
	assert_int_equal(comm(s, 100, true), 0);
	assert_int_equal(sample(s, 100, 100), 0);
	assert_int_equal(f2t_sample_filter_left_out(s), 6);
	f2t_sample_filter_free(s);
}

static void test_descendants(void **state)
{
	struct f2t_sample_filter *s = f2t_sample_filter_new("command", "100");

	assert_non_null(s);
	assert_int_equal(comm(s, 100, true), 0);
	/* A shell's child, forked by a thread of the shell, and its own child. */
	assert_int_equal(fork_(s, 110, 100, 110), 0);
	assert_int_equal(fork_(s, 120, 110, 120), 0);
	assert_int_equal(sample(s, 110, 110), 0);
	assert_int_equal(sample(s, 120, 120), 0);
	/* A process forked outside is not ours, nor are its threads. */
	assert_int_equal(fork_(s, 130, 200, 130), 0);
	assert_int_equal(fork_(s, 200, 200, 201), 0);
	assert_int_equal(sample(s, 130, 130), 1);
	assert_int_equal(sample(s, 200, 201), 1);
	/* Pid 120 ended and came back as someone else's child: out. */
	assert_int_equal(fork_(s, 120, 200, 120), 0);
	assert_int_equal(sample(s, 120, 120), 1);
	assert_int_equal(sample(s, 110, 110), 0);
	/* ... and back in when ours again, in the slot it left. */
	assert_int_equal(fork_(s, 120, 110, 120), 0);
	assert_int_equal(sample(s, 120, 120), 0);
	assert_int_equal(f2t_sample_filter_left_out(s), 3);
	f2t_sample_filter_free(s);
}

static void test_pids_from_the_start(void **state)
{
	struct f2t_sample_filter *s = f2t_sample_filter_new("pids", "300,7,4000000");

	assert_non_null(s);
	assert_int_equal(sample(s, 300, 300), 0);
	assert_int_equal(sample(s, 7, 8), 0);
	assert_int_equal(sample(s, 4000000, 4000000), 0);
	assert_int_equal(sample(s, 301, 301), 1);
	/* Thousands of descendants: the set grows, none is lost. */
	for (uint32_t pid = 10000; pid < 13000; pid++)
		assert_int_equal(fork_(s, pid, pid == 10000 ? 300 : pid - 1, pid), 0);
	for (uint32_t pid = 10000; pid < 13000; pid++)
		assert_int_equal(sample(s, pid, pid), 0);
	assert_int_equal(sample(s, 13000, 13000), 1);
	/* Half of them reused by outsiders. */
	for (uint32_t pid = 10000; pid < 13000; pid += 2)
		assert_int_equal(fork_(s, pid, 1, pid), 0);
	for (uint32_t pid = 10000; pid < 13000; pid++)
		assert_int_equal(sample(s, pid, pid), pid % 2 == 0);
	assert_int_equal(sample(s, 300, 300), 0);
	assert_int_equal(f2t_sample_filter_left_out(s), 2 + 1500);
	f2t_sample_filter_free(s);
}

static void test_cut_records(void **state)
{
	struct f2t_sample_filter *s = f2t_sample_filter_new("pids", "300");
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(h) + 8 };

	assert_non_null(s);
	/* A sample too short to hold its pid is left to the decoder to count. */
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(f2t_sample_filter_skip(s, rec, h.size, F2T_SAMPLE_TYPE), 0);
	/* A cut fork record adds nobody. */
	h.type = PERF_RECORD_FORK;
	h.size = sizeof(h) + 12;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), (uint32_t[]){ 500, 300, 500 }, 12);
	assert_int_equal(f2t_sample_filter_skip(s, rec, h.size, F2T_SAMPLE_TYPE), 0);
	assert_int_equal(sample(s, 500, 500), 1);
	/* Without PERF_SAMPLE_IP the pid comes first. */
	memcpy(rec + sizeof(h), (uint32_t[]){ 300, 300 }, 8);
	h.type = PERF_RECORD_SAMPLE;
	h.size = sizeof(h) + 8;
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(f2t_sample_filter_skip(s, rec, h.size, F2T_SAMPLE_TYPE & ~PERF_SAMPLE_IP),
			 0);
	assert_int_equal(f2t_sample_filter_left_out(s), 1);
	f2t_sample_filter_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_to_filter),
		cmocka_unit_test(test_malformed_roots),
		cmocka_unit_test(test_command_from_its_exec),
		cmocka_unit_test(test_descendants),
		cmocka_unit_test(test_pids_from_the_start),
		cmocka_unit_test(test_cut_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
