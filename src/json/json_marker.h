/* SPDX-License-Identifier: MIT */
/*
 * trace_marker writes as Chrome Trace Event Format events, for the JSON
 * writer: B/E, C, b/e (with an id), i on the writing thread, and clock_sync
 * (ph "c") events for clock sync markers (the mapping itself is
 * model/marker_track.h's).
 *
 * The JSON writer leaves these markers out of its systemTraceEvents text:
 * both viewers turn tracing_mark_write lines of that text into slices of
 * their own (Perfetto all atrace forms, Trace Viewer B/E/C/S/F), so a marker
 * in both places would show twice, and a clock sync line there would be a
 * second sync point of its id, which Trace Viewer refuses.
 */
#ifndef F2T_JSON_MARKER_H
#define F2T_JSON_MARKER_H

#include "output/writer.h"

struct json_markers;

/**
 * json_markers_new() - marker state for one JSON writer
 * @own_sync_id: the sync id of the clock_sync event the writer emits itself
 *	(NULL if none): a marker with that id must not make a second one
 *
 * Return: the state, or NULL with errno set (ENOMEM).
 */
struct json_markers *json_markers_new(const char *own_sync_id);

/** json_markers_free() - free @m; NULL is fine */
void json_markers_free(struct json_markers *m);

/**
 * json_markers_event() - write the traceEvents entry for one marker
 * @m:  the state
 * @w:  the JSON writer, inside its traceEvents array (each entry is written
 *	as ",\n{...}")
 * @ev: an F2T_EV_PRINT event
 *
 * Return: 0 or negative errno.
 */
int json_markers_event(struct json_markers *m, struct f2t_writer *w, const struct f2t_event *ev);

/**
 * json_markers_other_data() - the marker counts and the recorder's clock
 *	sync points, as members of otherData
 * @m: the state
 * @w: the JSON writer, inside its otherData object (each member is written
 *     as ,"key":value)
 *
 * Also reports problems on stderr, once per conversion.
 */
void json_markers_other_data(struct json_markers *m, struct f2t_writer *w);

#endif
