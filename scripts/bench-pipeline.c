// SPDX-License-Identifier: MIT
/*
 * The pipeline after the input, timed alone: every event of an input is
 * decoded first and kept (strings copied), then f2t_pipeline_new/add_file,
 * the events and f2t_pipeline_finish are timed, REPS times, each on the
 * task table a new opening of the input makes, in CPU time (the process's:
 * waiting for a core others share does not count).  Events go to the writers
 * without their source: a writer that asks it for more (an "other"
 * tracepoint's fields) gets none, so this is for scheduling-heavy inputs.
 *
 * usage: bench-pipeline INPUT OUTPUT FORMAT [REPS]
 * prints: EVENTS events, pipeline median MS min MS ms (of CPU time)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/format.h"
#include "pipeline/pipeline.h"
#include "source/input.h"

#define ARENA (64u << 20)
#define MAX_REPS 100

static char *arena;
static size_t arena_len, arena_cap;

/* A lasting copy of @n bytes of @s, NUL added. */
static const char *keep(const char *s, size_t n)
{
	char *r;

	if (arena_len + n + 1 > arena_cap) {
		arena_cap = n + 1 > ARENA ? n + 1 : ARENA;
		arena = malloc(arena_cap);
		if (!arena) {
			perror("bench-pipeline");
			exit(1);
		}
		arena_len = 0;
	}
	r = arena + arena_len;
	memcpy(r, s, n);
	r[n] = '\0';
	arena_len += n + 1;
	return r;
}

static const char *keep_str(const char *s)
{
	return s ? keep(s, strlen(s)) : NULL;
}

/* Strings of @ev that point into its source, made lasting; -1 for a kind not kept. */
static int keep_event(struct f2t_event *ev)
{
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		ev->sw.prev_comm = keep_str(ev->sw.prev_comm);
		ev->sw.next_comm = keep_str(ev->sw.next_comm);
		break;
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		ev->wake.comm = keep_str(ev->wake.comm);
		break;
	case F2T_EV_FORK:
		ev->fork.parent_comm = keep_str(ev->fork.parent_comm);
		ev->fork.child_comm = keep_str(ev->fork.child_comm);
		break;
	case F2T_EV_EXEC:
		ev->exec.filename = keep_str(ev->exec.filename);
		break;
	case F2T_EV_EXIT:
	case F2T_EV_FREE:
		ev->exit.comm = keep_str(ev->exit.comm);
		break;
	case F2T_EV_RENAME:
		ev->rename.oldcomm = keep_str(ev->rename.oldcomm);
		ev->rename.newcomm = keep_str(ev->rename.newcomm);
		break;
	case F2T_EV_PRINT:
		ev->print.buf = keep(ev->print.buf, ev->print.len);
		break;
	case F2T_EV_OTHER:
		ev->other.system = keep_str(ev->other.system);
		ev->other.name = keep_str(ev->other.name);
		break;
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
		ev->irq.name = keep_str(ev->irq.name);
		break;
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		ev->softirq.name = keep_str(ev->softirq.name);
		break;
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
	case F2T_EV_LOST:
		break;
	default:
		return -1;
	}
	ev->src = NULL;
	ev->raw = NULL;
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One timed pass of the @n events into @out; its milliseconds, or < 0. */
static double pass(struct f2t_input *in, const struct f2t_event *evs, size_t n,
		   const char *out, enum f2t_format fmt)
{
	double t0 = now_ms(), t1;
	struct f2t_pipeline *p = f2t_pipeline_new(&in->rec);
	int ret = p ? f2t_pipeline_add_file(p, out, fmt) : -ENOMEM;

	for (size_t i = 0; !ret && i < n; i++) {
		/* A source hands out the event it just wrote: in cache. */
		__builtin_prefetch(&evs[i + 8]);
		__builtin_prefetch((const char *)&evs[i + 8] + 64);
		ret = f2t_pipeline_event(p, &evs[i]);
	}
	if (!ret)
		ret = f2t_pipeline_finish(p, NULL);
	t1 = now_ms();
	f2t_pipeline_free(p);
	return ret ? -1 : t1 - t0;
}

int main(int argc, char **argv)
{
	struct f2t_input *in;
	struct f2t_event *evs = NULL, ev;
	size_t n = 0, cap = 0;
	double ms[MAX_REPS];
	enum f2t_format fmt;
	int reps, ret;

	if (argc < 4) {
		fprintf(stderr, "usage: %s INPUT OUTPUT FORMAT [REPS]\n", argv[0]);
		return 2;
	}
	fmt = f2t_format_from_name(argv[3]);
	reps = argc > 4 ? atoi(argv[4]) : 1;
	if (fmt == F2T_FMT_NONE || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "%s: bad format or count\n", argv[0]);
		return 2;
	}
	in = f2t_input_open(argv[1]);
	if (!in)
		return 1;
	while ((ret = f2t_source_next(in->events, &ev)) > 0) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1u << 20;
			evs = realloc(evs, cap * sizeof(*evs));
			if (!evs) {
				perror("bench-pipeline");
				return 1;
			}
		}
		if (keep_event(&ev)) {
			fprintf(stderr, "%s: events of kind %d are not kept\n", argv[0], ev.kind);
			return 1;
		}
		evs[n++] = ev;
	}
	if (ret < 0)
		return 1;
	for (int r = 0; r < reps; r++) {
		/* The task table as opening makes it: the tracker fills it as events pass. */
		struct f2t_input *again = f2t_input_open(argv[1]);

		if (!again)
			return 1;
		ms[r] = pass(again, evs, n, argv[2], fmt);
		f2t_input_close(again);
		if (ms[r] < 0)
			return 1;
	}
	qsort(ms, (size_t)reps, sizeof(ms[0]), cmp_double);
	printf("%zu events, pipeline median %.2f min %.2f ms\n", n, ms[reps / 2], ms[0]);
	f2t_input_close(in);
	return 0;
}
