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

#include "util/strset.h"
#include "model/marker.h"
#include "text/ftrace_text.h"
#include "output/writer.h"

struct systrace {
	struct f2t_ftext text;
	bool mono;			/* the header says the clock is CLOCK_MONOTONIC */
	struct f2t_strset sync_ids;	/* name=ID clock sync lines written */
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
 * Those lines are left out and counted; every other marker line stays.
 */
static int keep_marker(struct systrace *t, const struct f2t_event *ev, bool *keep)
{
	struct f2t_marker m;
	int ret;

	*keep = true;
	if (f2t_marker_parse(ev->print.buf, ev->print.len, &m) != F2T_MARKER_CLOCK_SYNC)
		return 0;
	if (m.has_parent_ts) {
		*keep = !t->mono;
	} else {
		ret = f2t_strset_add(&t->sync_ids, m.sync_id.s, m.sync_id.len);
		if (ret < 0)
			return ret;
		*keep = ret == 1;
	}
	t->syncs_left_out += !*keep;
	return 0;
}

static int systrace_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct systrace *t = w->priv;

	if (ev->kind == F2T_EV_PRINT) {
		bool keep;
		int ret = keep_marker(t, ev, &keep);

		if (ret)
			return ret;
		if (!keep)
			return 0;
	}
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
	struct systrace *t = w->priv;

	if (t)
		f2t_strset_fini(&t->sync_ids);
	free(t);
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
 * @w: the writer; out, info and tasks already set
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
