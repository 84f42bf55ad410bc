// SPDX-License-Identifier: MIT
/*
 * marker_demo [-t THREADS] [-n ROUNDS] [-j APP.json]: exercises every
 * function of <ftrace2trace/marker.h> from several threads at once.
 *
 * Each thread, ROUNDS times: begin "round", counter "progress" (the round's
 * number), begin "step" (nested in "round"), instant "tick", end (of
 * "step"), async begin/end "request" (cookie unique per thread and round),
 * end (of "round").  Before and after every call it reads CLOCK_MONOTONIC
 * and prints
 *
 *   marker_demo: CALL tid=TID before=NS after=NS rc=RC
 *
 * so a test can check that the kernel's timestamp for each marker falls
 * between the two.  The main thread then issues one clock sync, "demo-sync".
 *
 * With -j, it also writes APP.json, a Chrome JSON trace of its own on an
 * "application clock" 1000 s ahead of CLOCK_MONOTONIC: one X event per
 * round, on the same pid/tid as the markers, plus the clock_sync issuer
 * event for "demo-sync".  Merging it with the kernel trace must put each X
 * event over its "round" slice.
 *
 * Last line: marker_demo: tgid=PID threads=T rounds=N failures=F
 */
#define _GNU_SOURCE	/* gettid */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ftrace2trace/marker.h>

#define APP_CLOCK_AHEAD_NS (1000ull * 1000000000ull)
#define MAX_THREADS 64

static int rounds = 20;
static FILE *app;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static int failures;

struct span {
	uint64_t before, after;
};

static void report(const char *call, struct span s, int rc)
{
	pthread_mutex_lock(&print_lock);
	printf("marker_demo: %s tid=%d before=%" PRIu64 " after=%" PRIu64 " rc=%d\n",
	       call, (int)gettid(), s.before, s.after, rc);
	if (rc)
		failures++;
	pthread_mutex_unlock(&print_lock);
}

/* Runs CALL between two clock reads and reports it. */
#define TIMED(name, call)                                  \
	do {                                               \
		struct span s_;                            \
		int rc_;                                   \
		s_.before = f2t_trace_now_ns();            \
		rc_ = (call);                              \
		s_.after = f2t_trace_now_ns();             \
		report(name, s_, rc_);                     \
		last = s_;                                 \
	} while (0)

/* ns on the application clock as JSON microseconds, exactly. */
static void app_ts(char *buf, size_t len, uint64_t mono_ns)
{
	uint64_t ns = mono_ns + APP_CLOCK_AHEAD_NS;

	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static void app_round(int tid, int round, uint64_t begin_ns, uint64_t end_ns)
{
	char ts[32];

	if (!app)
		return;
	app_ts(ts, sizeof(ts), begin_ns);
	pthread_mutex_lock(&print_lock);
	fprintf(app, ",\n{\"name\":\"app round %d\",\"cat\":\"app\",\"ph\":\"X\",\"ts\":%s,"
		     "\"dur\":%" PRIu64 ".%03" PRIu64 ",\"pid\":%d,\"tid\":%d}",
		round, ts, (end_ns - begin_ns) / 1000, (end_ns - begin_ns) % 1000,
		(int)getpid(), tid);
	pthread_mutex_unlock(&print_lock);
}

static void *worker(void *arg)
{
	int tid = (int)gettid();
	struct span last, round_begin;

	(void)arg;
	for (int r = 0; r < rounds; r++) {
		int64_t cookie = (int64_t)tid * 100000 + r;

		TIMED("begin", f2t_trace_begin("round"));
		round_begin = last;
		TIMED("counter", f2t_trace_counter("progress", r));
		TIMED("begin", f2t_trace_begin("step"));
		TIMED("instant", f2t_trace_instant("tick"));
		TIMED("end", f2t_trace_end());
		TIMED("async_begin", f2t_trace_async_begin("request", cookie));
		TIMED("async_end", f2t_trace_async_end("request", cookie));
		TIMED("end", f2t_trace_end());
		/* The slice is somewhere inside [begin.before, end.after]. */
		app_round(tid, r, round_begin.before, last.after);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t threads[MAX_THREADS];
	int nthreads = 4, opt;
	const char *app_path = NULL;
	struct span last;
	char ts[32], issue[32];

	while ((opt = getopt(argc, argv, "t:n:j:")) != -1) {
		switch (opt) {
		case 't':
			nthreads = atoi(optarg);
			break;
		case 'n':
			rounds = atoi(optarg);
			break;
		case 'j':
			app_path = optarg;
			break;
		default:
			fprintf(stderr, "usage: marker_demo [-t THREADS] [-n ROUNDS] [-j APP.json]\n");
			return 2;
		}
	}
	if (nthreads < 1 || nthreads > MAX_THREADS || rounds < 0) {
		fprintf(stderr, "marker_demo: 1..%d threads, rounds >= 0\n", MAX_THREADS);
		return 2;
	}
	if (app_path) {
		app = fopen(app_path, "w");
		if (!app) {
			perror(app_path);
			return 1;
		}
		fprintf(app, "{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\","
			     "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"marker_demo (app clock)\"}}",
			(int)getpid(), (int)gettid());
	}

	/* A bad id is refused before anything is written. */
	if (f2t_trace_clock_sync("no spaces allowed") != -EINVAL ||
	    f2t_trace_clock_sync("") != -EINVAL) {
		fprintf(stderr, "marker_demo: a bad clock sync id was accepted\n");
		failures++;
	}

	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, worker, NULL)) {
			fprintf(stderr, "marker_demo: cannot start thread %d\n", i);
			return 1;
		}
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);

	TIMED("clock_sync", f2t_trace_clock_sync("demo-sync"));
	if (app) {
		/* The issuer's side: issue_ts before the marker, ts after it. */
		app_ts(issue, sizeof(issue), last.before);
		app_ts(ts, sizeof(ts), last.after);
		fprintf(app, ",\n{\"name\":\"clock_sync\",\"ph\":\"c\",\"ts\":%s,\"pid\":%d,"
			     "\"tid\":%d,\"args\":{\"sync_id\":\"demo-sync\",\"issue_ts\":%s}}\n],"
			     "\n\"otherData\":{\"producer\":\"marker_demo\"}}\n",
			ts, (int)getpid(), (int)gettid(), issue);
		if (fclose(app)) {
			perror(app_path);
			return 1;
		}
	}
	printf("marker_demo: tgid=%d threads=%d rounds=%d failures=%d\n",
	       (int)getpid(), nthreads, rounds, failures);
	return failures ? 1 : 0;
}
