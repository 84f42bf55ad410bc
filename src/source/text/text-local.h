/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by text_input.c (the file, its lines, the source) and
 * text_events.c (one parsed line into an event, and the kernel's text for
 * it).
 */
#ifndef F2T_TEXT_LOCAL_H
#define F2T_TEXT_LOCAL_H

#include "model/recording.h"
#include "source/source.h"
#include "source/text/text_parse.h"
#include "util/inmap.h"

#define TEXT_NEWTASK_SLOTS 4096

struct text_src {
	struct f2t_source base;
	const char *path;
	struct f2t_inmap inmap;		/* the file, mapped (none when empty) */
	const char *map;		/* inmap's data: the whole file */
	size_t map_len;
	size_t longest;			/* line the first pass found (no other fits the buffers) */
	const char *begin, *pos, *end;	/* the text in it (all of it, or an HTML block) */
	uint64_t lineno;		/* of the line read last */
	uint64_t first_lineno;		/* of the line at begin */
	uint64_t released;		/* bytes of map given back */
	const char *fetched;		/* asked for up to here */

	struct f2t_tline cur;		/* the line handed out last */
	struct f2t_tline_cache heads;	/* both passes' (the columns are the same) */
	uint64_t last_ts;
	char *scratch;			/* NUL-terminated copies of its strings */
	size_t scratch_len, scratch_cap;
	char *line;			/* its text (text op) */
	size_t line_cap;
	struct {
		int32_t pid;
		uint64_t clone_flags;
	} newtask[TEXT_NEWTASK_SLOTS];

	uint32_t ncpus;			/* from the first pass */
	uint64_t records, bad_lines, lost_events, lost_notes;
};

/*
 * The event a parsed line stands for, into @ev (zeroed, ts/cpu/pid/src
 * set): 1, 0 for a line that yields none (task_newtask: remembered for the
 * fork that follows), or -EINVAL when a known event lacks a field it needs.
 */
int f2t_text_event(struct text_src *s, const struct f2t_tline *t, struct f2t_event *ev);

/* The text op: the kernel's line for the event handed out last. */
const char *f2t_text_line(struct text_src *s, const struct f2t_event *ev,
			  const struct f2t_task *task, size_t *len);

/* The fields op: the "key=value" pairs of its body. */
int f2t_text_fields(struct text_src *s, const struct f2t_event *ev, f2t_field_fn fn, void *ctx);

#endif
