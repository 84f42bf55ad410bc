// SPDX-License-Identifier: MIT
/*
 * The kernel's ftrace text for the systrace and JSON writers.  Each event's
 * line comes from the source (f2t_event_text(): the kernel's own print
 * formats through libtraceevent); this file adds the header, the clock link
 * catapult needs, and a few safety rules for the viewers.
 */
#include <stdio.h>
#include <string.h>

#include "source/source.h"
#include "text/ftrace_text.h"

/* The kernel's header for a trace file with the record-tgid option on. */
static const char column_header[] =
	"#                                          _-----=> irqs-off/BH-disabled\n"
	"#                                         / _----=> need-resched\n"
	"#                                        | / _---=> hardirq/softirq\n"
	"#                                        || / _--=> preempt-depth\n"
	"#                                        ||| / _-=> migrate-disable\n"
	"#                                        |||| /     delay\n"
	"#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |           |       |   |||||     |         |\n";

void f2t_clock_link_choose(const struct f2t_trace_info *info, bool json,
			   struct f2t_clock_link *link)
{
	uint64_t ts = info->start_ns, parent = 0;

	memset(link, 0, sizeof(*link));
	f2t_recording_sync_id(info, link->sync_id);
	if (!strcmp(info->clock, "mono")) {
		link->kind = F2T_LINK_MONO_COMMENT;
	} else {
		/*
		 * The recorder reads CLOCK_MONOTONIC (start_ns) and
		 * CLOCK_BOOTTIME back to back at start, so for the boot clock
		 * that pair is a sync point.  For any other clock nothing ties
		 * it to CLOCK_MONOTONIC; 0 tells catapult to take them as one.
		 */
		if (!strcmp(info->clock, "boot") && info->boottime_ns && info->start_ns) {
			ts = info->boottime_ns;
			parent = info->start_ns;
		}
		link->kind = json ? F2T_LINK_SYNC_ID : F2T_LINK_PARENT_TS;
	}
	/* The text has microseconds only: keep the pair exact at that grain. */
	if (parent)
		parent -= ts % 1000;
	link->ts = ts - ts % 1000;
	link->parent_ns = parent;
}

static void put_raw(struct f2t_out *o, const char *s, size_t len)
{
	f2t_out_write(o, s, len);
}

void f2t_ftext_init(struct f2t_ftext *t, struct f2t_out *out, f2t_ftext_put_fn put)
{
	memset(t, 0, sizeof(*t));
	t->out = out;
	t->put = put ? put : put_raw;
}

static void puts_(struct f2t_ftext *t, const char *s)
{
	t->put(t->out, s, strlen(s));
}

/* A marker line as the kernel prints a trace_marker write, for the link. */
static void link_line(struct f2t_ftext *t, const struct f2t_clock_link *link)
{
	char line[256];
	int n;

	n = snprintf(line, sizeof(line), "%16s-%-7d (%7s) [%03u] %s %5llu.%06llu: "
		     "tracing_mark_write: trace_event_clock_sync: ",
		     "<...>", 0, "-------", 0, ".....",
		     (unsigned long long)(link->ts / 1000000000ull),
		     (unsigned long long)(link->ts % 1000000000ull / 1000));
	if (link->kind == F2T_LINK_SYNC_ID)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "name=%s\n", link->sync_id);
	else if (link->parent_ns)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "parent_ts=%llu.%06llu\n",
			      (unsigned long long)(link->parent_ns / 1000000000ull),
			      (unsigned long long)(link->parent_ns % 1000000000ull / 1000));
	else
		n += snprintf(line + n, sizeof(line) - (size_t)n, "parent_ts=0\n");
	t->put(t->out, line, (size_t)n);
}

void f2t_ftext_header(struct f2t_ftext *t, const struct f2t_trace_info *info,
		      const struct f2t_clock_link *link)
{
	char line[160];

	puts_(t, "# tracer: nop\n#\n");
	if (link->kind == F2T_LINK_MONO_COMMENT)
		puts_(t, "# clock_type=LINUX_CLOCK_MONOTONIC\n");
	/* What the kernel's "entries-in-buffer" line would say, less the
	 * counts, which are unknown until the end of a stream. */
	snprintf(line, sizeof(line), "# trace_clock: %s   #P:%u\n#\n", info->clock, info->ncpus);
	puts_(t, line);
	puts_(t, column_header);
	if (link->kind != F2T_LINK_MONO_COMMENT)
		link_line(t, link);
}

/* The first '\n' or '\r' in [P, END), or NULL.  Two memchr() calls beat a
 * byte loop: line breaks are almost never there. */
static const char *find_break(const char *p, const char *end)
{
	const char *n = memchr(p, '\n', (size_t)(end - p));
	const char *r = memchr(p, '\r', (size_t)((n ? n : end) - p));

	return r ? r : n;
}

void f2t_ftext_event(struct f2t_ftext *t, const struct f2t_event *ev)
{
	const char *text, *p, *end, *nl;
	bool patched = false;
	size_t len;

	if (ev->kind == F2T_EV_LOST) {
		t->lost++;
		return;
	}
	if (ev->kind == F2T_EV_SAMPLE || ev->kind == F2T_EV_OFFCPU)
		return;		/* perf samples and BPF records have no ftrace line */
	text = f2t_event_text(ev, &len);
	if (!text) {
		t->no_text++;
		return;
	}
	p = text;
	end = text + len;
	while ((nl = find_break(p, end))) {
		t->put(t->out, p, (size_t)(nl - p));
		t->put(t->out, "?", 1);
		p = nl + 1;
		patched = true;
	}
	t->put(t->out, p, (size_t)(end - p));
	t->put(t->out, "\n", 1);
	t->lines++;
	t->patched += patched;
}

void f2t_ftext_trailer(struct f2t_ftext *t, const struct f2t_stats *st)
{
	char line[512];

	if (!(st->lost_events || st->kernel_overrun || st->kernel_dropped || st->sched_gaps ||
	      st->unknown_events || st->bad_records || t->lost || t->no_text))
		return;
	snprintf(line, sizeof(line),
		 "# ftrace2trace: lost_events=%llu lost_pages=%llu kernel_overrun=%llu "
		 "kernel_dropped=%llu sched_gaps=%llu unknown_events=%llu bad_records=%llu "
		 "lost_event_notes=%llu events_without_text=%llu\n",
		 (unsigned long long)st->lost_events, (unsigned long long)st->lost_pages,
		 (unsigned long long)st->kernel_overrun, (unsigned long long)st->kernel_dropped,
		 (unsigned long long)st->sched_gaps, (unsigned long long)st->unknown_events,
		 (unsigned long long)st->bad_records, (unsigned long long)t->lost,
		 (unsigned long long)t->no_text);
	puts_(t, line);
}
