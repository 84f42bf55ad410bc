/* SPDX-License-Identifier: MIT */
/*
 * What a trace_marker write becomes in a trace, decided once for every
 * writer so that FXT and JSON agree record for record.
 *
 * Each F2T_EV_PRINT event handed to f2t_mtrack_event() gives back one
 * record to write (or none): which kind, on which thread and process,
 * under which name, with which async or counter id.  The table behind it
 * keeps what pairing needs across events: open B slices per thread
 * (model/slices.h), open async slices (S/F, G/H) with their names, and the
 * clock sync ids already written.  The model (model.h) owns the one table
 * of a conversion and turns its records into items for every writer.
 *
 * The mapping, and why:
 *  - B -> duration begin on the writing thread; E -> duration end when that
 *    thread has a slice open, otherwise nothing (counted).  An E whose B came
 *    before the recording started is normal at the start of a trace, not
 *    noise worth an event.
 *  - C -> a counter of the writing process, value int64 or double.
 *  - S/F and G/H -> async begin/end.  atrace pairs S with F by process,
 *    name and cookie, G with H by process, track and cookie; both viewers
 *    pair async events by an id that is not scoped to a process, so the id
 *    is a hash of those keys, and the cookie is kept as an argument.  An end
 *    with no open begin is dropped (counted), like E.  H may leave out the
 *    name: the end takes its begin's name, which the viewers match on.
 *  - I -> instant on the writing thread; N -> the same, with its track as
 *    an argument (a named track of its own would hold one instant each).
 *  - trace_event_clock_sync: name=ID -> a clock sync, once per id: a second
 *    sync with one id in a file makes Trace Viewer refuse the whole file, so
 *    repeats become instants (counted).  parent_ts=SECONDS has no id; it
 *    gets one, "parent_ts-" and the kernel timestamp in ns, which is unique
 *    in a recording and the same in two recordings of that one marker on
 *    one clock (and only then): what a merge may align on.
 *  - Anything else -> an instant carrying the text; text that looked like a
 *    marker but was not one also carries why (counted as malformed).
 *
 * The thread is the print event's pid; the process is the task table's tgid
 * for it.  The pid inside the text is not trusted: a program can write any.
 *
 * What the print event itself stands for, in the formats that write print
 * events too (struct f2t_mprint), is decided here as well:
 *  - Perfetto's importer (trace_processor) parses print events in their
 *    atrace form into slices, counters and async slices, as for its own
 *    recordings.  Where its reading and this table's agree, a Perfetto file
 *    carries the print event in place of the record; where they would
 *    differ, the record: text that is no marker, or a malformed one
 *    (trace_processor counts a parse failure and shows nothing); B with
 *    arguments (it takes "name|args" for the name); C with a fractional
 *    value (it reads integers only); B, S, I, N, G with an empty name, or
 *    N, G, H without a track.  An end (E, F, H) stands for a record only
 *    when this table matched it (trace_processor would count one with
 *    nothing open as a "misplaced end").  Clock syncs always go as they are
 *    (trace_processor passes over them; they stay in its raw event table).
 *    The pid in that text is the tgid: trace_processor would otherwise move
 *    the writing thread into whatever process the text names.
 *  - ftrace text: Trace Viewer refuses a text with a second clock sync line
 *    of one id, and a parent_ts line syncs a CLOCK_MONOTONIC text with
 *    itself; the record says which lines those are.
 */
#ifndef F2T_MARKER_TRACK_H
#define F2T_MARKER_TRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/marker.h"

/* What to write for one marker. */
enum f2t_mrec {
	F2T_MREC_NONE = 0,	/* nothing: an end with nothing open (counted) */
	F2T_MREC_BEGIN,		/* duration begin on the thread */
	F2T_MREC_END,		/* duration end on the thread */
	F2T_MREC_COUNTER,	/* counter sample of the process */
	F2T_MREC_ASYNC_BEGIN,	/* async slice begin, .async_id */
	F2T_MREC_ASYNC_END,	/* async slice end, .async_id */
	F2T_MREC_INSTANT,	/* instant on the thread */
	F2T_MREC_CLOCK_SYNC,	/* clock sync point, .sync_id, first of its id */
};

/* What the print event itself stands for (see the top of this file). */
struct f2t_mprint {
	/*
	 * trace_processor reads the print event as this record: a Perfetto
	 * file writes the event, with @text, instead of the record's item.
	 */
	bool atrace;
	/* atrace: the text cut at its first NUL, the pid after "X|" the tgid. */
	struct f2t_marker_str text;
	/* A name=ID clock sync line whose id an earlier marker's line had. */
	bool repeated_sync_line;
	/* A parent_ts clock sync line. */
	bool parent_ts_line;
};

/* Room for a made-up sync id: "parent_ts-" and a uint64. */
#define F2T_MREC_SYNC_ID_MAX 32

struct f2t_mrecord {
	enum f2t_mrec rec;
	int32_t tid;			/* the writing thread */
	int32_t tgid;			/* its process, from the task table */
	/* The record's name: the marker's; an async end's is its begin's. */
	struct f2t_marker_str name;
	/* The category: "marker", or a counter's own (C|pid|name|value|cat). */
	struct f2t_marker_str category;
	/* ASYNC_*: pairs begin and end; stable across writers and runs. */
	uint64_t async_id;
	/* CLOCK_SYNC: the id (the marker's, or made up for parent_ts). */
	struct f2t_marker_str sync_id;
	/* INSTANT from malformed text: why it is malformed (static), else NULL. */
	const char *malformed;
	/* INSTANT from a clock sync whose id the file already has. */
	bool repeated_sync;
	struct f2t_mprint print;
	/* Not cleared for each event: the parse fills m whole, sync_buf is written before use. */
	struct f2t_marker m;		/* the parse; views into the event's text */
	char sync_buf[F2T_MREC_SYNC_ID_MAX];
};

/* What a table has seen, for the trace's own statistics. */
struct f2t_mcounts {
	uint64_t markers;			/* print events seen */
	uint64_t kinds[F2T_MARKER_KIND_COUNT];	/* by parsed kind (TEXT includes malformed) */
	uint64_t malformed;			/* looked like a marker, did not parse */
	uint64_t unmatched_ends;		/* E with no open B on its thread: dropped */
	uint64_t unmatched_async_ends;		/* F/H with no open S/G: dropped */
	uint64_t repeated_sync_ids;		/* clock syncs whose id was already written */
	uint64_t open_slices;			/* B never ended (so far) */
	uint64_t open_async;			/* S/G never ended (so far) */
};

struct f2t_mtrack;

/**
 * f2t_mtrack_new() - an empty table
 *
 * Return: the table, or NULL with errno set (ENOMEM).
 */
struct f2t_mtrack *f2t_mtrack_new(void);

/** f2t_mtrack_free() - free @t; NULL is fine */
void f2t_mtrack_free(struct f2t_mtrack *t);

/**
 * f2t_mtrack_reserve_sync_id() - an id the file already uses for itself
 * @t:   the table
 * @id:  the id, NUL-terminated
 *
 * A marker with this id then becomes an instant, not a second clock sync.
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_mtrack_reserve_sync_id(struct f2t_mtrack *t, const char *id);

/**
 * f2t_mtrack_event() - decide what a print event becomes
 * @t:    the table
 * @ev:   an F2T_EV_PRINT event
 * @tgid: the process of @ev->pid from the task table, or <= 0 if unknown
 *	  (then the thread is taken as its own process)
 * @out:  filled in; its string views point into @ev's text and into @out
 *	  itself, and into the table for an async end's name and a print
 *	  text with its pid replaced (valid until the next call)
 *
 * Return: 0, or -ENOMEM (nothing was recorded in the table then).
 */
int f2t_mtrack_event(struct f2t_mtrack *t, const struct f2t_event *ev, int32_t tgid,
		     struct f2t_mrecord *out);

/** f2t_mtrack_counts() - the counts so far, open slices included */
void f2t_mtrack_counts(const struct f2t_mtrack *t, struct f2t_mcounts *c);

/**
 * f2t_mtrack_report() - tell the user on stderr what went wrong with markers
 * @t:   the table
 *
 * One warning line when markers were malformed, ends were unmatched or sync
 * ids repeated; nothing otherwise.
 */
void f2t_mtrack_report(const struct f2t_mtrack *t);

/**
 * f2t_mtrack_hash() - the id async events are paired by
 * @tgid:   the process
 * @space:  'S' for S/F (keyed by name), 'G' for G/H (keyed by track)
 * @key:    the name or track
 * @cookie: the marker's cookie
 *
 * Exposed for tests.  Return: a 64-bit hash of all four.
 */
uint64_t f2t_mtrack_hash(int32_t tgid, char space, struct f2t_marker_str key, int64_t cookie);

#endif
