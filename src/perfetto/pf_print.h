/* SPDX-License-Identifier: MIT */
/*
 * What a trace_marker write becomes in a Perfetto file.  trace_processor
 * parses print events in their atrace form into slices, counters and async
 * slices, as for its own recordings; where its reading and the model's
 * (model/marker_track.h) agree, the print event goes as it is, and the
 * model's items for it are not written.  Where they would differ, the
 * items go instead (as TrackEvents, pf_track.h):
 *  - text that is no marker, or a malformed one: trace_processor counts a
 *    parse failure and shows nothing; the items are instants;
 *  - B with arguments: trace_processor takes "name|args" for the name;
 *  - C with a fractional value: trace_processor reads integers only;
 *  - B, S, I, N, G with an empty name, or N, G, H without a track.
 * An end (E, F, H) goes only when the model matched it to its begin: one
 * with nothing open would be a "misplaced end" in trace_processor, and the
 * model drops it too (counted).  Clock sync markers go as they are
 * (trace_processor passes over them; they stay in its raw event table).
 *
 * The pid in the text is the writing process as the task table has it,
 * not what the program wrote: trace_processor would otherwise move the
 * writing thread into whatever process the text names.
 */
#ifndef F2T_PF_PRINT_H
#define F2T_PF_PRINT_H

#include <stddef.h>
#include <stdint.h>

enum pf_print_path {
	PF_PRINT_ITEMS,		/* write the model's items */
	PF_PRINT_RAW,		/* write the print event */
	PF_PRINT_RAW_IF_MATCHED,	/* the print event if the model made an item of it */
};

/* Room pf_print_path() needs in @text beyond the marker's own length. */
#define PF_PRINT_EXTRA 16

/**
 * pf_print_path() - decide what print event @buf (@len bytes) becomes
 * @tgid: the writing thread's process, from the task table
 * @text: out: the text to write when the path is a RAW one: @buf cut at
 *	  its first NUL, with its pid replaced by @tgid; at least
 *	  @len + PF_PRINT_EXTRA bytes
 * @text_len: out: its length
 *
 * Return: the path.
 */
enum pf_print_path pf_print_path(const char *buf, size_t len, int32_t tgid, char *text,
				 size_t *text_len);

#endif
