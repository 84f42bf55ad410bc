/* SPDX-License-Identifier: MIT */
/*
 * The source interface: anything that yields events in timestamp order.  A
 * capture's ring-buffer pages and its perf rings are sources; so would be a
 * trace-cmd trace.dat or ftrace text.  Everything downstream (tracker,
 * model, every writer) sees only events and these calls, never where the
 * events came from.
 *
 * An event handed out by next() points into its source's memory and stays
 * valid until that same source is asked for its next event: the merge
 * (f2t_source_merge()) relies on it to hold one pending event per source.
 */
#ifndef F2T_SOURCE_H
#define F2T_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "model/event.h"
#include "model/stats.h"

struct f2t_source;

struct f2t_source_ops {
	/* The next event into @ev: 1, 0 at the end, or a negative errno after
	 * reporting what is wrong (file and offset). */
	int (*next)(struct f2t_source *s, struct f2t_event *ev);
	/* The kernel's text for @ev (see f2t_event_text()); NULL if none. */
	const char *(*text)(struct f2t_source *s, const struct f2t_event *ev, size_t *len);
	/* @ev's raw fields (see f2t_event_fields()); -ENOENT if it keeps none. */
	int (*fields)(struct f2t_source *s, const struct f2t_event *ev, f2t_field_fn fn,
		      void *ctx);
	/* Adds what the source counted (lost, unknown, malformed) to @st. */
	void (*counts)(const struct f2t_source *s, struct f2t_stats *st);
	/* Bytes consumed so far and in all, for progress. */
	void (*progress)(const struct f2t_source *s, uint64_t *done, uint64_t *total);
	void (*close)(struct f2t_source *s);
};

/* Embedded first in every source's own state. */
struct f2t_source {
	const struct f2t_source_ops *ops;
};

static inline int f2t_source_next(struct f2t_source *s, struct f2t_event *ev)
{
	return s->ops->next(s, ev);
}

static inline void f2t_source_counts(const struct f2t_source *s, struct f2t_stats *st)
{
	if (s->ops->counts)
		s->ops->counts(s, st);
}

static inline void f2t_source_progress(const struct f2t_source *s, uint64_t *done,
				       uint64_t *total)
{
	*done = *total = 0;
	if (s->ops->progress)
		s->ops->progress(s, done, total);
}

/** f2t_source_close() - close @s; NULL is fine */
static inline void f2t_source_close(struct f2t_source *s)
{
	if (s)
		s->ops->close(s);
}

/**
 * f2t_source_merge() - one source yielding the events of several, by time
 * @srcs: the sources, in order of precedence: of two events with the same
 *	  timestamp, the one from the earlier source comes first
 * @n: how many (any number; 0 gives an empty source)
 *
 * The merge owns the sources from then on, and closes them when it is
 * closed, also when this fails.  Counts and progress are the sum of theirs.
 *
 * Return: the merged source, or NULL with errno set.
 */
struct f2t_source *f2t_source_merge(struct f2t_source **srcs, unsigned int n);

#endif
