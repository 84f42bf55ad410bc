// SPDX-License-Identifier: MIT
/*
 * The systrace writer: the kernel's ftrace text alone (header, clock link,
 * one line per event), for a tool that embeds it as the systemTraceEvents of
 * its own JSON trace, or for reading.  Opens in Perfetto UI and
 * chrome://tracing as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "text/ftrace_text.h"
#include "output/writer.h"

struct systrace {
	struct f2t_ftext text;
	bool mono;			/* the header says the clock is CLOCK_MONOTONIC */
	uint64_t syncs_left_out;
};

static int systrace_begin(struct f2t_writer *w)
{
	struct systrace *t = w->priv;
	struct f2t_clock_link link;

	/* Stand-alone text sits next to someone else's CLOCK_MONOTONIC events. */
	f2t_clock_link_choose(w->info, false, &link);
	t->mono = link.kind == F2T_LINK_MONO_COMMENT;
	f2t_ftext_header(&t->text, w->info, &link);
	return w->out->err;
}

/*
 * Trace Viewer refuses the whole text ("A clock domain cannot sync with
 * itself") for a second clock sync line with one id, and for a parent_ts
 * line when the header already put the text on CLOCK_MONOTONIC (it then
 * syncs that clock with itself; and says nothing the header does not).
 * The model says which lines those are; they are left out and counted.
 */
static bool keep_marker(struct systrace *t, const struct f2t_mprint *print)
{
	bool keep = !print->repeated_sync_line && !(print->parent_ts_line && t->mono);

	t->syncs_left_out += !keep;
	return keep;
}

static int systrace_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct systrace *t = w->priv;

	if (ev->kind == F2T_EV_PRINT && !keep_marker(t, f2t_model_print(w->model)))
		return 0;
	f2t_ftext_event(&t->text, ev);
	return w->out->err;
}

static int systrace_end(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct systrace *t = w->priv;
	char line[160];

	f2t_ftext_trailer(&t->text, st);
	if (t->syncs_left_out) {
		snprintf(line, sizeof(line), "# ftrace2trace: clock_sync_lines_left_out=%llu\n",
			 (unsigned long long)t->syncs_left_out);
		f2t_out_puts(w->out, line);
	}
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
 * @w: the writer; out, info, tasks and model already set
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_systrace_writer_init(struct f2t_writer *w)
{
	struct systrace *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	f2t_ftext_init(&t->text, w->out, NULL, w->tasks);
	t->text.lost_lines = true;
	w->ops = &systrace_ops;
	w->priv = t;
	return 0;
}
