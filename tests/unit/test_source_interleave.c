// SPDX-License-Identifier: MIT
/*
 * Sources interleaved by time (source/interleave.c over util/minheap.c): every
 * event once, in timestamp order, ties to the earlier source, empty sources
 * harmless, a failing source's error passed on, counts summed, every source
 * closed with the interleaving; one source passed on as it gives its events.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "event_source.h"
#include "source/source.h"

/* Events at the given times, each marked with its source (cpu) and position (pid). */
static void fill(struct f2t_event *ev, uint32_t src, const uint64_t *ts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ev[i] = (struct f2t_event){ .ts = ts[i], .cpu = src, .pid = (int32_t)i };
}

static void test_three_sources_in_order_ties_to_the_earlier(void **state)
{
	static const uint64_t t0[] = { 1, 5, 5, 9 }, t1[] = { 2, 5, 7 }, t2[] = { 5, 5, 10, 11 };
	struct f2t_event e0[4], e1[3], e2[4], ev;
	struct event_source s[4] = {
		event_source(e0, 4), event_source(e1, 3), event_source(NULL, 0), event_source(e2, 4),
	};
	struct f2t_source *srcs[4] = { &s[0].base, &s[1].base, &s[2].base, &s[3].base };
	/* (ts, source, position) in the order they must come out. */
	static const uint32_t want[][3] = {
		{ 1, 0, 0 }, { 2, 1, 0 }, { 5, 0, 1 }, { 5, 0, 2 }, { 5, 1, 1 }, { 5, 3, 0 },
		{ 5, 3, 1 }, { 7, 1, 2 }, { 9, 0, 3 }, { 10, 3, 2 }, { 11, 3, 3 },
	};
	struct f2t_source *m;
	size_t n = 0;
	int ret;

	fill(e0, 0, t0, 4);
	fill(e1, 1, t1, 3);
	fill(e2, 3, t2, 4);
	m = f2t_source_interleave(srcs, 4);
	assert_non_null(m);
	while ((ret = f2t_source_next(m, &ev)) > 0) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(ev.ts, want[n][0]);
		assert_int_equal(ev.cpu, want[n][1]);
		assert_int_equal(ev.pid, want[n][2]);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	/* Asked again at the end: still the end. */
	assert_int_equal(f2t_source_next(m, &ev), 0);
	f2t_source_close(m);
	for (int i = 0; i < 4; i++)
		assert_int_equal(s[i].closed, 1);
}

static void test_nothing_to_interleave(void **state)
{
	struct event_source a = event_source(NULL, 0), b = event_source(NULL, 0);
	struct f2t_source *srcs[2] = { &a.base, &b.base };
	struct f2t_source *m;
	struct f2t_event ev;

	m = f2t_source_interleave(srcs, 0);
	assert_non_null(m);
	assert_int_equal(f2t_source_next(m, &ev), 0);
	f2t_source_close(m);
	m = f2t_source_interleave(srcs, 2);
	assert_non_null(m);
	assert_int_equal(f2t_source_next(m, &ev), 0);
	f2t_source_close(m);
	assert_int_equal(a.closed, 1);
}

/* The event handed out stays as it was until the next is asked for. */
static void test_event_valid_until_the_next(void **state)
{
	static const uint64_t t0[] = { 1, 3 }, t1[] = { 2 };
	struct f2t_event e0[2], e1[1], first, ev;
	struct event_source s0 = event_source(e0, 2), s1 = event_source(e1, 1);
	struct f2t_source *srcs[2] = { &s0.base, &s1.base };
	struct f2t_source *m;

	fill(e0, 0, t0, 2);
	fill(e1, 1, t1, 1);
	m = f2t_source_interleave(srcs, 2);
	assert_non_null(m);
	assert_int_equal(f2t_source_next(m, &first), 1);
	/* Source 0 was not moved on yet: it handed out one event only. */
	assert_int_equal(s0.next, 1);
	assert_int_equal(f2t_source_next(m, &ev), 1);
	assert_int_equal(s0.next, 2);
	assert_int_equal(first.ts, 1);
	assert_int_equal(ev.ts, 2);
	f2t_source_close(m);
}

static void test_failure_midway_is_passed_on(void **state)
{
	static const uint64_t t0[] = { 1, 2, 3, 4 }, t1[] = { 10 };
	struct f2t_event e0[4], e1[1], ev;
	struct event_source s0 = event_source(e0, 4), s1 = event_source(e1, 1);
	struct f2t_source *srcs[2] = { &s0.base, &s1.base };
	struct f2t_source *m;

	fill(e0, 0, t0, 4);
	fill(e1, 1, t1, 1);
	s0.fail_at = 2;		/* after two events */
	m = f2t_source_interleave(srcs, 2);
	assert_non_null(m);
	assert_int_equal(f2t_source_next(m, &ev), 1);
	assert_int_equal(f2t_source_next(m, &ev), 1);
	assert_int_equal(ev.ts, 2);
	assert_int_equal(f2t_source_next(m, &ev), -EIO);
	f2t_source_close(m);
	assert_int_equal(s0.closed, 1);
	assert_int_equal(s1.closed, 1);
}

static void test_failure_at_the_start_closes_every_source(void **state)
{
	struct f2t_event e[1] = { { .ts = 1 } };
	struct event_source s0 = event_source(e, 1), s1 = event_source(e, 1);
	struct f2t_source *srcs[2] = { &s0.base, &s1.base };

	s1.fail_at = 0;
	errno = 0;
	assert_null(f2t_source_interleave(srcs, 2));
	assert_int_equal(errno, EIO);
	assert_int_equal(s0.closed, 1);
	assert_int_equal(s1.closed, 1);
}

static void test_counts_are_summed(void **state)
{
	struct event_source a = event_source(NULL, 0), b = event_source(NULL, 0);
	struct f2t_source *srcs[2] = { &a.base, &b.base };
	struct f2t_stats st = { .lost_events = 1 };
	struct f2t_source *m;

	a.counts.lost_events = 10;
	b.counts.lost_events = 100;
	b.counts.bad_records = 3;
	m = f2t_source_interleave(srcs, 2);
	assert_non_null(m);
	f2t_source_counts(m, &st);
	assert_int_equal(st.lost_events, 111);
	assert_int_equal(st.bad_records, 3);
	f2t_source_close(m);
}

/* One source: its events as it gives them, its first asked for at the opening. */
static void test_one_source_passed_on(void **state)
{
	static const uint64_t t[] = { 4, 4, 6 };
	struct f2t_event e[3], ev;
	struct event_source s = event_source(e, 3), empty = event_source(NULL, 0);
	struct f2t_source *srcs[1] = { &s.base };
	struct f2t_source *m;

	fill(e, 0, t, 3);
	m = f2t_source_interleave(srcs, 1);
	assert_non_null(m);
	assert_int_equal(s.next, 1);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(f2t_source_next(m, &ev), 1);
		assert_int_equal(ev.ts, t[i]);
		assert_int_equal(ev.pid, i);
		/* Not moved on before the next is asked for. */
		assert_int_equal(s.next, (size_t)i + 1);
	}
	assert_int_equal(f2t_source_next(m, &ev), 0);
	assert_int_equal(f2t_source_next(m, &ev), 0);
	f2t_source_close(m);
	assert_int_equal(s.closed, 1);

	srcs[0] = &empty.base;
	m = f2t_source_interleave(srcs, 1);
	assert_non_null(m);
	assert_int_equal(f2t_source_next(m, &ev), 0);
	f2t_source_close(m);
	assert_int_equal(empty.closed, 1);
}

static void test_one_source_failing(void **state)
{
	static const uint64_t t[] = { 1, 2, 3 };
	struct f2t_event e[3], ev;
	struct event_source s = event_source(e, 3), at_start = event_source(e, 3);
	struct f2t_source *srcs[1] = { &s.base };
	struct f2t_source *m;

	fill(e, 0, t, 3);
	s.fail_at = 2;
	m = f2t_source_interleave(srcs, 1);
	assert_non_null(m);
	assert_int_equal(f2t_source_next(m, &ev), 1);
	assert_int_equal(f2t_source_next(m, &ev), 1);
	assert_int_equal(f2t_source_next(m, &ev), -EIO);
	f2t_source_close(m);

	at_start.fail_at = 0;
	srcs[0] = &at_start.base;
	errno = 0;
	assert_null(f2t_source_interleave(srcs, 1));
	assert_int_equal(errno, EIO);
	assert_int_equal(at_start.closed, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_sources_in_order_ties_to_the_earlier),
		cmocka_unit_test(test_nothing_to_interleave),
		cmocka_unit_test(test_event_valid_until_the_next),
		cmocka_unit_test(test_failure_midway_is_passed_on),
		cmocka_unit_test(test_failure_at_the_start_closes_every_source),
		cmocka_unit_test(test_counts_are_summed),
		cmocka_unit_test(test_one_source_passed_on),
		cmocka_unit_test(test_one_source_failing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
