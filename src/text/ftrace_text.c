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

void f2t_ftext_init(struct f2t_ftext *t, struct f2t_out *out, f2t_ftext_put_fn put,
		    const struct f2t_tasks *tasks)
{
	memset(t, 0, sizeof(*t));
	t->out = out;
	t->tasks = tasks;
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

/* The characters a latency-flags column holds: flag letters, '.', and the
 * preempt-count and migrate-disable hex digits. */
static const bool flag_char[256] = {
	['.'] = true, ['D'] = true, ['X'] = true, ['N'] = true, ['n'] = true, ['p'] = true,
	['L'] = true, ['l'] = true, ['B'] = true, ['h'] = true, ['H'] = true, ['s'] = true,
	['Z'] = true, ['z'] = true, ['0'] = true, ['1'] = true, ['2'] = true, ['3'] = true,
	['4'] = true, ['5'] = true, ['6'] = true, ['7'] = true, ['8'] = true, ['9'] = true,
	['a'] = true, ['b'] = true, ['c'] = true, ['d'] = true, ['e'] = true, ['f'] = true,
};

static bool is_flags(const char *p)
{
	for (int i = 0; i < 5; i++)
		if (!flag_char[(unsigned char)p[i]])
			return false;
	return true;
}

/*
 * Where the five latency flags of a line start: after "(TGID) [CPU] ", the
 * first place that reads so past the task name, which fills 16 columns
 * (a kernel task name has at most 15 bytes) and may hold anything.  -1 when
 * the line does not look like that.
 */
static long flags_at(const char *text, size_t len)
{
	if (len < 17)
		return -1;
	for (const char *p = text + 17; (p = memchr(p, '[', (size_t)(text + len - p))); p++) {
		const char *q = p + 1;

		if (p < text + 2 || p[-1] != ' ' || p[-2] != ')')
			continue;
		while (q < text + len && *q >= '0' && *q <= '9')
			q++;
		if (q - p >= 4 && text + len - q > 7 && q[0] == ']' && q[1] == ' ' && q[7] == ' ' &&
		    is_flags(q + 2))
			return (long)(q + 2 - text);
	}
	return -1;
}

/*
 * The flags as Trace Viewer's line pattern takes them ([dX.][Nnp.][Hhs.]):
 * the letters it predates become the nearest it knows (BH-disabled D/b,
 * lazy rescheduling l/L/b/B, NMI z/Z), or it drops the whole line, a
 * wakeup among them.
 */
static void viewer_flags(const char *in, char *out)
{
	memcpy(out, in, 5);
	out[0] = in[0] == 'D' ? 'd' : in[0] == 'b' ? '.' : in[0];
	out[1] = in[1] == 'l' || in[1] == 'b' ? 'n' : in[1] == 'L' || in[1] == 'B' ? 'N' : in[1];
	out[2] = in[2] == 'z' ? 'h' : in[2] == 'Z' ? 'H' : in[2];
}

/* The kernel's print_trace_line(): an unknown count is its (unsigned long)-1, ours 0. */
static void lost_line(struct f2t_ftext *t, const struct f2t_event *ev)
{
	char line[64];
	int n = ev->lost.count ?
		snprintf(line, sizeof(line), "CPU:%u [LOST %llu EVENTS]\n", ev->cpu,
			 (unsigned long long)ev->lost.count) :
		snprintf(line, sizeof(line), "CPU:%u [LOST EVENTS]\n", ev->cpu);

	t->put(t->out, line, (size_t)n);
}

void f2t_ftext_event(struct f2t_ftext *t, const struct f2t_event *ev)
{
	const char *text, *p, *end, *nl;
	bool patched = false;
	char flags[5];
	size_t len;

	if (ev->kind == F2T_EV_LOST) {
		t->lost++;
		if (t->lost_lines)
			lost_line(t, ev);
		return;
	}
	if (ev->kind == F2T_EV_SAMPLE || ev->kind == F2T_EV_OFFCPU)
		return;		/* perf samples and BPF records have no ftrace line */
	text = f2t_event_text(ev, ev->pid ? f2t_tasks_find(t->tasks, ev->pid) : NULL, &len);
	if (!text) {
		t->no_text++;
		return;
	}
	p = text;
	end = text + len;
	if (t->viewer_flags) {
		long at = flags_at(text, len);

		if (at >= 0) {
			viewer_flags(text + at, flags);
			if (memcmp(flags, text + at, 5)) {
				t->put(t->out, text, (size_t)at);
				t->put(t->out, flags, 5);
				p = text + at + 5;
				t->flags_mapped++;
			}
		}
	}
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
	char num[24];

	if (!(st->lost_events || st->kernel_overrun || st->kernel_dropped || st->sched_gaps ||
	      st->unknown_events || st->bad_records || t->lost || t->no_text))
		return;
	/* The run's counts (model/stats.h), then the text's own. */
	puts_(t, "# ftrace2trace:");
	for (size_t i = 0; i < f2t_stat_count; i++) {
		snprintf(num, sizeof(num), "=%llu",
			 (unsigned long long)f2t_stat_value(st, &f2t_stat_list[i]));
		puts_(t, " ");
		puts_(t, f2t_stat_list[i].name);
		puts_(t, num);
	}
	snprintf(num, sizeof(num), "=%llu", (unsigned long long)t->lost);
	puts_(t, " lost_event_notes");
	puts_(t, num);
	snprintf(num, sizeof(num), "=%llu\n", (unsigned long long)t->no_text);
	puts_(t, " events_without_text");
	puts_(t, num);
}
