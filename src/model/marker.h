/* SPDX-License-Identifier: MIT */
/*
 * atrace-style trace_marker text, as captured in ftrace print events
 * (F2T_EV_PRINT), parsed into a typed marker.  The forms:
 *
 *   B|pid|name[|args]            begin a slice on the writing thread
 *   E[|pid[|...]]                end the innermost slice on the writing thread
 *   C|pid|name|value[|category]  counter (value: int64 or a decimal double)
 *   S|pid|name|cookie            async slice begin (process-wide)
 *   F|pid|name|cookie            async slice end
 *   I|pid|name                   instant on the writing thread
 *   N|pid|track|name             instant on a named track
 *   G|pid|track|name|cookie      async slice begin on a named track
 *   H|pid|track|name|cookie      async slice end on a named track
 *   H|pid|track|cookie           (the same, name left out, as Android writes it)
 *   trace_event_clock_sync: name=ID
 *   trace_event_clock_sync: parent_ts=SECONDS
 *
 * The pid in the text is the writer's process (tgid).  The thread is NOT in
 * the text: it is the print event's own pid (struct f2t_event.pid), and the
 * writers must take it from there.
 *
 * Any other text is F2T_MARKER_TEXT: an instant carrying the text.  Text
 * that starts like a marker ("B|", "C|", ..., "trace_event_clock_sync:") but
 * does not parse is TEXT too, with .malformed set and .reason saying why, so
 * the pipeline can count it; nothing is dropped silently.
 *
 * Durations: a writer must match each E with an open B on the same thread
 * and drop (and count) an E that has none; model/slices.h keeps that count.
 */
#ifndef F2T_MARKER_H
#define F2T_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum f2t_marker_kind {
	F2T_MARKER_TEXT = 0,		/* plain or malformed text: an instant */
	F2T_MARKER_BEGIN,		/* B */
	F2T_MARKER_END,			/* E */
	F2T_MARKER_COUNTER,		/* C */
	F2T_MARKER_ASYNC_BEGIN,		/* S */
	F2T_MARKER_ASYNC_END,		/* F */
	F2T_MARKER_INSTANT,		/* I */
	F2T_MARKER_TRACK_INSTANT,	/* N */
	F2T_MARKER_TRACK_BEGIN,		/* G */
	F2T_MARKER_TRACK_END,		/* H */
	F2T_MARKER_CLOCK_SYNC,		/* trace_event_clock_sync: */
	F2T_MARKER_KIND_COUNT
};

/* A view into the parsed buffer: not NUL-terminated, valid while it is. */
struct f2t_marker_str {
	const char *s;
	size_t len;
};

struct f2t_marker {
	enum f2t_marker_kind kind;
	/* The text's bytes before its first NUL, trailing '\n's included. */
	size_t text_len;
	/* TEXT only: it looked like a marker but was not a valid one. */
	bool malformed;
	/* Why it is malformed: a static string, NULL otherwise. */
	const char *reason;
	/* The writer's tgid from the text; -1 when the text has none (E, TEXT, CLOCK_SYNC). */
	int32_t pid;
	/*
	 * B C S F I N G H: the slice/counter/instant name (H: may be empty).
	 * TEXT: the whole text.  CLOCK_SYNC: empty.
	 */
	struct f2t_marker_str name;
	/* N G H: the track's name. */
	struct f2t_marker_str track;
	/*
	 * What follows the last field the kind defines, without its '|':
	 * B: the args; E: anything after the pid; C: the category;
	 * S F I N G H: extra fields, which atrace does not define.  Empty if none.
	 */
	struct f2t_marker_str args;
	/* S F G H: the cookie that pairs begin and end. */
	int64_t cookie;
	/* C: the value.  dvalue is always set; ivalue only when !value_is_double. */
	bool value_is_double;
	int64_t ivalue;
	double dvalue;
	/* CLOCK_SYNC, name=ID form: the id (letters, digits, '_', '-'). */
	struct f2t_marker_str sync_id;
	/* CLOCK_SYNC, parent_ts=SECONDS form: the text and its value in ns. */
	bool has_parent_ts;
	struct f2t_marker_str parent_ts;
	uint64_t parent_ts_ns;
};

/**
 * f2t_marker_parse() - parse one trace_marker write
 * @buf: the text (need not be NUL-terminated); it is cut at its first NUL,
 *       as the kernel's own text output does, and trailing '\n's are ignored
 * @len: its length in bytes
 * @m:   filled in; its string views point into @buf
 *
 * Pure: no allocation, no global state, linear in @len.  Never fails: text
 * that is not a valid marker comes back as F2T_MARKER_TEXT.
 *
 * Return: m->kind.
 */
enum f2t_marker_kind f2t_marker_parse(const char *buf, size_t len, struct f2t_marker *m);

/* "begin", "end", ... for messages and statistics. */
const char *f2t_marker_kind_name(enum f2t_marker_kind kind);

#endif
