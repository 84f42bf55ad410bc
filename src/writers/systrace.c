// SPDX-License-Identifier: MIT
/*
 * The systrace writer: the kernel's ftrace text alone (header, clock link,
 * one line per event), for a tool that embeds it as the systemTraceEvents of
 * its own JSON trace, or for reading.  Opens in Perfetto UI and
 * chrome://tracing as it is.
 */
#include <errno.h>
#include <stdlib.h>

#include "writers/ftrace_text.h"
#include "writers/writer.h"

static int systrace_begin(struct f2t_writer *w)
{
	struct f2t_ftext *t = w->priv;
	struct f2t_clock_link link;

	/* Stand-alone text sits next to someone else's CLOCK_MONOTONIC events. */
	f2t_clock_link_choose(w->info, false, &link);
	f2t_ftext_header(t, w->info, &link);
	return w->out->err;
}

static int systrace_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	f2t_ftext_event(w->priv, ev);
	return w->out->err;
}

static int systrace_end(struct f2t_writer *w, const struct f2t_stats *st)
{
	f2t_ftext_trailer(w->priv, st);
	return w->out->err;
}

static void systrace_destroy(struct f2t_writer *w)
{
	free(w->priv);
	w->priv = NULL;
}

static const struct f2t_writer_ops systrace_ops = {
	.name = "systrace",
	.begin = systrace_begin,
	.event = systrace_event,
	.end = systrace_end,
	.destroy = systrace_destroy,
};

/**
 * f2t_systrace_writer_init() - make W write ftrace text
 * @w: the writer; out, info, tasks and slot already set
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_systrace_writer_init(struct f2t_writer *w)
{
	struct f2t_ftext *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	f2t_ftext_init(t, w->out, false);
	w->ops = &systrace_ops;
	w->priv = t;
	return 0;
}
