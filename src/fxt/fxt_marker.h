/* SPDX-License-Identifier: MIT */
/*
 * trace_marker writes as FXT event records, for the FXT writer: duration
 * begin/end, counter, async begin/end and instant records on the writing
 * thread (the mapping itself is model/marker_track.h's).  What Perfetto
 * makes of each record is in shared/VIEWERS.md.
 */
#ifndef F2T_FXT_MARKER_H
#define F2T_FXT_MARKER_H

#include <stdint.h>

#include "fxt/fxt_enc.h"
#include "output/writer.h"

/*
 * What the FXT writer lends this module: its string and thread tables and
 * its output, so the records here share them with the writer's own.
 */
struct fxt_marker_io {
	/* A ref for the string, writing its string record first when new. */
	int (*string_ref)(struct f2t_writer *w, const char *s, size_t len, struct fxt_str *ref);
	/* A ref for the thread, writing its thread record first when new. */
	int (*thread_ref)(struct f2t_writer *w, uint64_t pid, uint64_t tid,
			  struct fxt_thread *ref);
	/* The task @tid, named in the file before any record uses it. */
	int (*ensure_named)(struct f2t_writer *w, int32_t tid, struct f2t_task **t);
	/* Appends @n words to the output. */
	void (*emit)(struct f2t_writer *w, const uint64_t *words, int n);
};

struct fxt_markers;

/**
 * fxt_markers_new() - marker state for one FXT writer
 * @io: the writer's helpers; must outlive the state
 *
 * Return: the state, or NULL with errno set (ENOMEM).
 */
struct fxt_markers *fxt_markers_new(const struct fxt_marker_io *io);

/** fxt_markers_free() - free @m; NULL is fine */
void fxt_markers_free(struct fxt_markers *m);

/**
 * fxt_markers_event() - write the record for one trace_marker write
 * @m:  the state
 * @w:  the FXT writer
 * @ev: an F2T_EV_PRINT event
 *
 * Return: 0 or negative errno.
 */
int fxt_markers_event(struct fxt_markers *m, struct f2t_writer *w, const struct f2t_event *ev);

/**
 * fxt_markers_end() - the marker counts, as an instant "ftrace2trace_markers"
 * @m:  the state
 * @w:  the FXT writer
 * @ts: when (the end of the trace)
 *
 * Written only when the trace had markers; also reports problems on stderr
 * (once per conversion, see f2t_mtrack_report()).
 *
 * Return: 0 or negative errno.
 */
int fxt_markers_end(struct fxt_markers *m, struct f2t_writer *w, uint64_t ts);

#endif
