/* SPDX-License-Identifier: MIT */
/*
 * A source for tests: hands out a fixed array of events in order, then
 * reports the counts it was given, as a real source adds what it counted
 * (lost events, malformed records).  Events get no fields, and the kernel
 * text in .text[i] when the test gives it one.
 */
#ifndef F2T_TEST_EVENT_SOURCE_H
#define F2T_TEST_EVENT_SOURCE_H

#include <errno.h>
#include <string.h>

#include "source/source.h"

struct event_source {
	struct f2t_source base;
	const struct f2t_event *ev;
	const char *const *text;	/* the kernel's line for each event, or NULL */
	size_t n, next;
	struct f2t_stats counts;	/* added by counts() */
	int fail_at;			/* next() fails with -EIO at this index (-1: never) */
	int closed;
};

static int event_source_next(struct f2t_source *s, struct f2t_event *ev)
{
	struct event_source *e = (struct event_source *)s;

	if (e->fail_at >= 0 && e->next == (size_t)e->fail_at)
		return -EIO;
	if (e->next == e->n)
		return 0;
	*ev = e->ev[e->next];
	ev->src = s;
	ev->raw = e->text ? &e->text[e->next] : NULL;
	e->next++;
	return 1;
}

static const char *event_source_text(struct f2t_source *s, const struct f2t_event *ev,
				     const struct f2t_task *task, size_t *len)
{
	const char *const *line = ev->raw;

	if (!line || !*line) {
		errno = ENOENT;
		return NULL;
	}
	*len = strlen(*line);
	return *line;
}

static void event_source_counts(const struct f2t_source *s, struct f2t_stats *st)
{
	const struct event_source *e = (const struct event_source *)s;

	st->lost_events += e->counts.lost_events;
	st->unknown_events += e->counts.unknown_events;
	st->bad_records += e->counts.bad_records;
}

static void event_source_close(struct f2t_source *s)
{
	((struct event_source *)s)->closed++;
}

static const struct f2t_source_ops event_source_ops = {
	.next = event_source_next,
	.text = event_source_text,
	.counts = event_source_counts,
	.close = event_source_close,
};

/* A source over @n events at @ev (which must outlive it). */
static inline struct event_source event_source(const struct f2t_event *ev, size_t n)
{
	return (struct event_source){ .base = { &event_source_ops }, .ev = ev, .n = n,
				      .fail_at = -1 };
}

#endif
