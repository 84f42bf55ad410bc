/* SPDX-License-Identifier: MIT */
/*
 * The kernel's ftrace text for a stream of events, as the systrace writer
 * writes it to a file and the JSON writer embeds it as "systemTraceEvents".
 * One producer, two sinks: bytes go out either as they are or JSON-escaped.
 */
#ifndef F2T_FTRACE_TEXT_H
#define F2T_FTRACE_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "output/writer.h"

/*
 * How the text tells catapult's Trace Viewer which clock its timestamps are
 * on.  Without a link, a JSON file with both traceEvents and ftrace text
 * fails to import there (see docs/viewers.md).
 */
enum f2t_clock_link_kind {
	/* "# clock_type=LINUX_CLOCK_MONOTONIC": the trace clock is mono. */
	F2T_LINK_MONO_COMMENT,
	/* A "trace_event_clock_sync: name=ID" marker line matching the JSON
	 * "clock_sync" event with sync_id ID at the same time. */
	F2T_LINK_SYNC_ID,
	/* A "trace_event_clock_sync: parent_ts=SECONDS" marker line: trace
	 * clock time ts is CLOCK_MONOTONIC time SECONDS (0: same clock). */
	F2T_LINK_PARENT_TS,
};

struct f2t_clock_link {
	enum f2t_clock_link_kind kind;
	uint64_t ts;		/* trace clock ns of the marker line / clock_sync event */
	uint64_t parent_ns;	/* F2T_LINK_PARENT_TS: CLOCK_MONOTONIC ns at ts, 0 unknown */
	char sync_id[F2T_SYNC_ID_MAX];	/* what the clock_sync event and the marker line share */
};

/**
 * f2t_clock_link_choose() - decide how the text links to other clocks
 * @info: the recording (its clock, start times)
 * @json: true for the JSON writer, whose own traceEvents are on the trace
 *	clock; false for stand-alone text, which others embed next to their
 *	CLOCK_MONOTONIC events
 * @link: filled in
 *
 * A mono trace clock gets the comment line.  Otherwise JSON pairs its
 * clock_sync event with a marker line of the same id (both sides share the
 * trace clock, so the viewers agree), and stand-alone text gets a
 * parent_ts marker computed from the CLOCK_BOOTTIME / CLOCK_MONOTONIC pair
 * taken at start, or 0 ("same clock") when the clock is neither.
 */
void f2t_clock_link_choose(const struct f2t_trace_info *info, bool json,
			   struct f2t_clock_link *link);

typedef void (*f2t_ftext_put_fn)(struct f2t_out *o, const char *s, size_t len);

struct f2t_ftext {
	struct f2t_out *out;
	/* Names and processes of the tasks whose records carry only a pid. */
	const struct f2t_tasks *tasks;
	/* How bytes go out: as they are, or escaped for a JSON string. */
	f2t_ftext_put_fn put;
	uint64_t lines;		/* event lines written */
	uint64_t no_text;	/* events the source had no text for */
	uint64_t lost;		/* F2T_EV_LOST events (counted; lines if lost_lines) */
	uint64_t patched;	/* lines with a line break inside, replaced */
	/*
	 * Write the latency flags Trace Viewer predates as the nearest it reads
	 * (the JSON writer's text is read by it); flags_mapped counts the lines.
	 */
	bool viewer_flags;
	uint64_t flags_mapped;
	/*
	 * Mark a loss where it happened with the kernel's own line,
	 * "CPU:N [LOST M EVENTS]" ("CPU:N [LOST EVENTS]" when the kernel could
	 * not count), as its trace file does before the first event after it.
	 */
	bool lost_lines;
};

/**
 * f2t_ftext_init() - set up a text producer
 * @t: the producer
 * @out: where the text goes
 * @put: how bytes go out (the JSON writer escapes them for a string); NULL:
 *	as they are
 * @tasks: the task table, kept current by the tracker: the name and process
 *	a line shows when its record has only the pid
 */
void f2t_ftext_init(struct f2t_ftext *t, struct f2t_out *out, f2t_ftext_put_fn put,
		    const struct f2t_tasks *tasks);

/**
 * f2t_ftext_header() - write the "# tracer: nop" header and the clock link
 * @t: the producer
 * @info: the recording
 * @link: from f2t_clock_link_choose()
 */
void f2t_ftext_header(struct f2t_ftext *t, const struct f2t_trace_info *info,
		      const struct f2t_clock_link *link);

/**
 * f2t_ftext_event() - write EV's line, exactly as the kernel's trace file
 * @t: the producer
 * @ev: the event
 *
 * A lost-event note is counted, and written as the kernel's line when
 * lost_lines is set.
 * A line break inside a line (a task name or marker holding one) would split
 * it in two, which Perfetto refuses outright, so it becomes '?'.
 */
void f2t_ftext_event(struct f2t_ftext *t, const struct f2t_event *ev);

/**
 * f2t_ftext_trailer() - comment lines saying what did not make it
 * @t: the producer
 * @st: the conversion's counts
 *
 * Written only when something was lost or skipped: the stand-alone text has
 * no other place to say so.
 */
void f2t_ftext_trailer(struct f2t_ftext *t, const struct f2t_stats *st);

#endif
