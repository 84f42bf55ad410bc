/* SPDX-License-Identifier: MIT */
/*
 * Sources: anything that yields events in timestamp order, through the
 * interface model/event.h defines (struct f2t_source_ops).  A capture's
 * ring-buffer pages and its perf rings are sources; so are a trace-cmd
 * trace.dat's buffers and ftrace text.  Everything downstream (tracker, model, every
 * writer) sees only events, never where they came from.  A source reads no
 * task table and changes none: a name it knows from elsewhere goes with the
 * event (ev->pid_comm), and a task's name in its text is the caller's to
 * give.  Here: the calls on a source, and several interleaved into one.
 */
#ifndef F2T_SOURCE_H
#define F2T_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "model/event.h"
#include "model/stats.h"

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
 * f2t_source_interleave() - one source yielding the events of several, by time
 * @srcs: the sources, in order of precedence: of two events with the same
 *	  timestamp, the one from the earlier source comes first
 * @n: how many (any number; 0 gives an empty source)
 *
 * The interleaving owns the sources from then on, and closes them when it is
 * closed, also when this fails.  Counts and progress are the sum of theirs.
 *
 * Return: the interleaved source, or NULL with errno set.
 */
struct f2t_source *f2t_source_interleave(struct f2t_source **srcs, unsigned int n);

/**
 * f2t_source_direct() - where to read @s's next events from
 * @s: a source that has handed out at least one event
 *
 * An interleaving of one source, its first event taken, has nothing of its
 * own left to add: the caller reads that source directly (one call an event
 * fewer), and asks @s no more events; counts, progress and closing stay @s's.
 *
 * Return: that one source, or @s itself.
 */
struct f2t_source *f2t_source_direct(struct f2t_source *s);

#endif
