// SPDX-License-Identifier: MIT
/*
 * The report, end to end through the pipeline, on a workload made by hand:
 * thread "worker" sleeps 50 us ten times and each time waits k us (k = 1..10)
 * for cpu 0 after "app" wakes it from cpu 1.  Every figure checked is worked
 * out in the comments.  Also the latency histogram's buckets and error bound,
 * against percentiles computed exactly from sorted values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/lathist.h"
#include "report/report.h"
#include "event_source.h"
#include "sched_events.h"

#define T0 1000000ull		/* the first event */
#define CYCLE 100000ull		/* worker's k-th wakeup is at T0 + k * CYCLE */
#define END (T0 + 1200000ull)	/* the last event */
#define APP 1000
#define WORKER 1001

static const char snapshot[] = "1000 1000 app\n1001 1000 worker\n2000 2000 other\n";

static const char *names(int32_t tid)
{
	return tid == APP ? "app" : tid == WORKER ? "worker" : tid ? "other" : "swapper";
}

/*
 * cpu 1 runs app throughout; cpu 0 runs worker, which sleeps at
 * T0 + k * CYCLE - 50 us, is woken by app at T0 + k * CYCLE, and switched
 * in k us later.  With @lost_at, cpu 0 loses 5 events at that time.
 */
static size_t workload(struct f2t_event *ev, uint64_t lost_at)
{
	size_t n = 0;

	ev[n++] = ev_switch(T0, 0, 0, "R", WORKER);
	ev[n++] = ev_switch(T0, 1, 0, "R", APP);
	for (uint64_t k = 1; k <= 10; k++) {
		uint64_t b = T0 + k * CYCLE;

		if (lost_at && lost_at < b - 50000 && (!n || ev[n - 1].ts < lost_at))
			ev[n++] = ev_lost(lost_at, 0, 5);
		ev[n++] = ev_switch(b - 50000, 0, WORKER, "S", 0);
		ev[n++] = ev_waking(b, 1, APP, WORKER);
		ev[n++] = ev_switch(b + k * 1000, 0, 0, "R", WORKER);
	}
	ev[n++] = ev_mark(END, 1, APP);
	return n;
}

struct run {
	struct f2t_tasks *tasks;
	struct f2t_recording rec;
	char *text;
	size_t len;
};

/* The report on the workload, as --csv, --json or text, with @o's choices. */
static void report(struct run *run, struct f2t_report_opts o, enum f2t_report_format fmt,
		   uint64_t lost_at)
{
	struct f2t_event ev[64];
	struct event_source src = event_source(ev, workload(ev, lost_at));
	struct f2t_pipeline *p;
	struct f2t_report *r;
	struct f2t_tap tap;
	FILE *tmp = tmpfile();
	int bad = 0;

	memset(run, 0, sizeof(*run));
	ev_comm = names;
	run->tasks = f2t_tasks_new();
	assert_non_null(run->tasks);
	assert_int_equal(f2t_tasks_load_snapshot(run->tasks, snapshot, strlen(snapshot), &bad), 3);
	run->rec.tasks = run->tasks;
	run->rec.path = "test.cap";
	src.counts.lost_events = lost_at ? 5 : 0;
	o.format = fmt;
	r = f2t_report_new(&o, &run->rec);
	p = f2t_pipeline_new(&run->rec);
	assert_non_null(r);
	assert_non_null(p);
	tap = f2t_report_tap(r);
	assert_int_equal(f2t_pipeline_add_tap(p, &tap), 0);
	assert_int_equal(f2t_pipeline_run(p, &src.base, false), 0);
	assert_int_equal(f2t_pipeline_finish(p, &src.base), 0);
	f2t_pipeline_free(p);

	assert_non_null(tmp);
	{
		struct f2t_out *out = f2t_out_fdopen(fileno(tmp), "test");

		assert_int_equal(f2t_report_write(r, out), 0);
		assert_int_equal(f2t_out_close(out), 0);
	}
	f2t_report_free(r);
	run->len = (size_t)lseek(fileno(tmp), 0, SEEK_END);
	run->text = calloc(1, run->len + 1);
	assert_int_equal(pread(fileno(tmp), run->text, run->len, 0), (ssize_t)run->len);
	fclose(tmp);
}

static void run_free(struct run *run)
{
	free(run->text);
	f2t_tasks_free(run->tasks);
}

/* The CSV field @name of the row of thread @tid: its number, -1 if empty. */
static long long csv(const struct run *run, int32_t tid, const char *name)
{
	const char *line = run->text, *hdr = run->text;
	char want[32];
	int col = 0;

	/* Which column. */
	for (const char *f = hdr; *f != '\n'; col++) {
		size_t len = strcspn(f, ",\n");

		if (len == strlen(name) && !strncmp(f, name, len))
			break;
		f += len + (f[len] == ',');
		if (f[-1] == '\n' || *f == '\n')
			fail_msg("no column %s", name);
	}
	snprintf(want, sizeof(want), "\n%d,", tid);
	line = strstr(run->text, want);
	if (!line)
		fail_msg("no row for thread %d in:\n%s", tid, run->text);
	line++;
	for (int i = 0; i < col; i++)
		line = strchr(line, ',') + 1;
	return *line == ',' || *line == '\n' ? -1 : strtoll(line, NULL, 10);
}

static size_t rows(const struct run *run)
{
	size_t n = 0;

	for (const char *p = run->text; (p = strchr(p, '\n')); p++)
		n++;
	return n - 1;	/* the header */
}

static void test_time_by_state(void **state)
{
	struct f2t_report_opts o = { 0 };
	struct run run;

	report(&run, o, F2T_REPORT_CSV, 0);
	assert_int_equal(rows(&run), 2);
	/*
	 * worker runs T0..T0+50us, then (50 - k) us after its k-th wakeup for
	 * k = 1..9, then from its 10th (T0 + 1010 us) to the end (T0 + 1200 us):
	 * 50 + 450 - 45 + 190 = 645 us.  It sleeps 10 x 50 us and waits
	 * 1 + 2 + ... + 10 = 55 us: 1200 us in all, its whole life.
	 */
	assert_int_equal(csv(&run, WORKER, "life_ns"), 1200000);
	assert_int_equal(csv(&run, WORKER, "running_ns"), 645000);
	assert_int_equal(csv(&run, WORKER, "sleeping_ns"), 500000);
	assert_int_equal(csv(&run, WORKER, "runnable_woken_ns"), 55000);
	assert_int_equal(csv(&run, WORKER, "runnable_preempted_ns"), 0);
	assert_int_equal(csv(&run, WORKER, "blocked_ns"), 0);
	assert_int_equal(csv(&run, WORKER, "unknown_ns"), 0);
	assert_int_equal(csv(&run, WORKER, "switches_voluntary"), 10);
	assert_int_equal(csv(&run, WORKER, "switches_involuntary"), 0);
	assert_int_equal(csv(&run, WORKER, "migrations"), 0);
	assert_int_equal(csv(&run, WORKER, "pid"), APP);
	/*
	 * Latencies 1..10 us, nearest rank: p50 is the 5th, 5000 ns, shown as
	 * the middle of its bucket [4864, 5120): 4992; p90 the 9th, 9000 ns,
	 * in [8704, 9216): 8960; p99 the 10th, the max, exact.
	 */
	assert_int_equal(csv(&run, WORKER, "wakeups"), 10);
	assert_int_equal(csv(&run, WORKER, "wakeup_p50_ns"), 4992);
	assert_int_equal(csv(&run, WORKER, "wakeup_p90_ns"), 8960);
	assert_int_equal(csv(&run, WORKER, "wakeup_p99_ns"), 10000);
	assert_int_equal(csv(&run, WORKER, "wakeup_max_ns"), 10000);
	/* The longest: woken at T0 + 10 * CYCLE, i.e. 1 ms into the trace, run on cpu 0. */
	assert_int_equal(csv(&run, WORKER, "wakeup_max_at_ns"), 1000000);
	assert_int_equal(csv(&run, WORKER, "wakeup_max_cpu"), 0);
	/* app ran on cpu 1 throughout and was never woken: no latency figures. */
	assert_int_equal(csv(&run, APP, "running_ns"), 1200000);
	assert_int_equal(csv(&run, APP, "wakeups"), 0);
	assert_int_equal(csv(&run, APP, "wakeup_p50_ns"), -1);
	assert_int_equal(csv(&run, APP, "wakeup_max_ns"), -1);
	run_free(&run);
}

static void test_window(void **state)
{
	struct f2t_report_opts o = { .from_ns = 500000, .to_ns = 900000 };
	struct run run;

	report(&run, o, F2T_REPORT_CSV, 0);
	/*
	 * [T0 + 500 us, T0 + 900 us]: wakeups 5..8 end inside (the 9th ends at
	 * 909 us, outside); worker runs (50 - k) us after each: 45 + 44 + 43 +
	 * 42 = 174 us, waits 5 + 6 + 7 + 8 = 26 us, sleeps 4 x 50 us, switches
	 * out at 550, 650, 750, 850 us.
	 */
	assert_int_equal(csv(&run, WORKER, "life_ns"), 400000);
	assert_int_equal(csv(&run, WORKER, "running_ns"), 174000);
	assert_int_equal(csv(&run, WORKER, "runnable_woken_ns"), 26000);
	assert_int_equal(csv(&run, WORKER, "sleeping_ns"), 200000);
	assert_int_equal(csv(&run, WORKER, "switches_voluntary"), 4);
	assert_int_equal(csv(&run, WORKER, "wakeups"), 4);
	/* 5, 6, 7, 8 us: the 2nd, 6000 ns in [5888, 6144), is 6016; the 4th is the max. */
	assert_int_equal(csv(&run, WORKER, "wakeup_p50_ns"), 6016);
	assert_int_equal(csv(&run, WORKER, "wakeup_p90_ns"), 8000);
	assert_int_equal(csv(&run, WORKER, "wakeup_max_ns"), 8000);
	assert_int_equal(csv(&run, APP, "running_ns"), 400000);
	run_free(&run);
}

static void test_lost_events_are_unknown(void **state)
{
	struct f2t_report_opts o = { 0 };
	struct run run;

	/*
	 * cpu 0 loses events at T0 + 320 us, while worker runs (since its 3rd
	 * wakeup, at T0 + 303 us, cpu 0's last event).  What it did until
	 * cpu 0's next event (its switch out at T0 + 350 us) is unknown: 47 us
	 * taken from running.
	 */
	report(&run, o, F2T_REPORT_CSV, T0 + 320000);
	assert_int_equal(csv(&run, WORKER, "unknown_ns"), 47000);
	assert_int_equal(csv(&run, WORKER, "running_ns"), 645000 - 47000);
	assert_int_equal(csv(&run, WORKER, "life_ns"), 1200000);
	assert_int_equal(csv(&run, WORKER, "wakeups"), 10);
	/* The switch out at 350 us is still counted: its prev_state is known. */
	assert_int_equal(csv(&run, WORKER, "switches_voluntary"), 10);
	run_free(&run);

	report(&run, o, F2T_REPORT_JSON, T0 + 320000);
	assert_non_null(strstr(run.text, "\"lost\":5,"));
	assert_non_null(strstr(run.text, "\"unknown_ns\":{\"total\":47000,\"before_first_event\":0,"
				     "\"gap\":0,\"lost\":47000,\"unseen\":0}"));
	/* cpu 0: busy 598 us, idle 10 x 50 us + 55 us, unknown the 47 us. */
	assert_non_null(strstr(run.text, "{\"cpu\":0,\"busy_ns\":598000,\"idle_ns\":555000,"
				     "\"unknown_ns\":47000,\"switches\":21,"));
	run_free(&run);
}

static void test_filters_sort_top(void **state)
{
	static const char *const worker[] = { "worker" };
	static const int32_t app[] = { APP };
	struct f2t_report_opts o = { .comms = worker, .ncomms = 1 };
	struct run run;

	report(&run, o, F2T_REPORT_CSV, 0);
	assert_int_equal(rows(&run), 1);
	assert_int_equal(csv(&run, WORKER, "wakeups"), 10);
	run_free(&run);

	/* The process's name selects all its threads. */
	o = (struct f2t_report_opts){ .comms = (const char *const[]){ "app" }, .ncomms = 1 };
	report(&run, o, F2T_REPORT_CSV, 0);
	assert_int_equal(rows(&run), 2);
	run_free(&run);

	o = (struct f2t_report_opts){ .tids = app, .ntids = 1 };
	report(&run, o, F2T_REPORT_CSV, 0);
	assert_int_equal(rows(&run), 1);
	assert_int_equal(csv(&run, APP, "running_ns"), 1200000);
	run_free(&run);

	/* Sorted by running time, app comes first; by wakeups, worker does. */
	o = (struct f2t_report_opts){ 0 };
	report(&run, o, F2T_REPORT_CSV, 0);
	assert_true(strstr(run.text, "\n1000,") < strstr(run.text, "\n1001,"));
	run_free(&run);
	o.sort = "wakeups";
	report(&run, o, F2T_REPORT_CSV, 0);
	assert_true(strstr(run.text, "\n1001,") < strstr(run.text, "\n1000,"));
	run_free(&run);
	o.top = 1;
	report(&run, o, F2T_REPORT_CSV, 0);
	assert_int_equal(rows(&run), 1);
	assert_non_null(strstr(run.text, "\n1001,"));
	run_free(&run);
	assert_true(f2t_report_sort_ok("running"));
	assert_true(f2t_report_sort_ok("wakeup_p99_ns"));
	assert_true(f2t_report_sort_ok("wakeup_p99"));
	assert_false(f2t_report_sort_ok("runnin"));
}

static void test_text(void **state)
{
	struct f2t_report_opts o = { .slow_ns = 8500 };
	struct run run;

	report(&run, o, F2T_REPORT_TEXT, 0);
	/* One process of two threads: a roll-up line, then each thread. */
	assert_non_null(strstr(run.text, "app [2 threads]"));
	/* worker: 645 us running of its 1200 us, 54%. */
	assert_non_null(strstr(run.text, "  645.0us  54%"));
	/* 10 wakeups, 1..10 us: 1 in runqlat's [0, 1] us bucket, 2 in [2, 3], ... */
	assert_non_null(strstr(run.text, "         0 -> 1          : 1         |****"));
	assert_non_null(strstr(run.text, "         8 -> 15         : 3         |************"));
	/* Waits over 8.5 us: the 9th and 10th, 900 and 1000 us in, cpu 0 idle meanwhile. */
	assert_non_null(strstr(run.text, "Waits for a CPU longer than 8.5us: 2\n"));
	assert_non_null(strstr(run.text, "    0.000900    1000    1001  worker              0     9.0us"
				     "  woken by app[1000]; <idle> 9.0us\n"));
	run_free(&run);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_histogram_error_bound(void **state)
{
	static uint64_t v[5000];
	struct f2t_lathist h = { 0 };
	uint64_t seed = 42, lo, hi;
	const double pcts[] = { 1, 10, 50, 90, 99, 99.9 };

	/* Below 16 ns each value is its own bucket; above, 16 per power of two. */
	assert_int_equal(f2t_lathist_bucket(15, &lo, &hi), 15);
	assert_int_equal(lo, 15);
	assert_int_equal(hi, 16);
	f2t_lathist_bucket(5000, &lo, &hi);
	assert_int_equal(lo, 4864);
	assert_int_equal(hi, 5120);
	/* Latencies spread over six decades (log-uniform, 10 ns to 10 ms). */
	for (size_t i = 0; i < 5000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = (uint64_t)(10.0 * pow(1e6, (double)(seed >> 11) / 9007199254740992.0));
		f2t_lathist_add(&h, v[i]);
	}
	qsort(v, 5000, sizeof(v[0]), cmp_u64);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		/* Nearest rank: the ceil(p * n / 100)-th smallest. */
		size_t rank = (size_t)ceil(pcts[i] * 5000 / 100);
		uint64_t exact = v[rank - 1], got = f2t_lathist_percentile(&h, pcts[i]);
		double err = fabs((double)got - (double)exact) / (double)exact;

		if (err > 1.0 / 32)
			fail_msg("p%g: %llu, exactly %llu: %.2f%% off", pcts[i],
				 (unsigned long long)got, (unsigned long long)exact, 100 * err);
	}
	assert_int_equal(f2t_lathist_percentile(&h, 100), v[4999]);
	assert_int_equal(h.max, v[4999]);
	assert_int_equal(h.min, v[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_by_state),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_lost_events_are_unknown),
		cmocka_unit_test(test_filters_sort_top),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_histogram_error_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
