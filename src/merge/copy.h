/* SPDX-License-Identifier: MIT */
/*
 * The merge's second pass: copying each input's sections into the output,
 * shifting timestamps by the input's offset and renaming stack frame ids,
 * everything else byte for byte.  Each function seeks to the position the
 * first pass recorded and reads only that section.
 */
#ifndef F2T_MERGE_COPY_H
#define F2T_MERGE_COPY_H

#include <stdbool.h>

#include "merge/input.h"
#include "util/strset.h"
#include "util/out.h"

/**
 * f2t_mcopy_events() - copy an input's traceEvents elements
 * @out: the output, inside its traceEvents array
 * @in: the input
 * @first: true until the array has an element; elements are written after
 *	"\n" or ",\n" accordingly, and it is cleared
 *
 * "ts" is shifted by in->offset_ns (args.issue_ts too, for clock_sync
 * events); "sf"/"esf" are renamed when in->rename_frames; clock_sync events
 * not kept by f2t_merge_pick_syncs() are left out.
 *
 * Return: 0 or a negative errno (printed).
 */
int f2t_mcopy_events(struct f2t_out *out, struct f2t_minput *in, bool *first);

/* The same for the elements of "samples" (ts shifted, sf renamed). */
int f2t_mcopy_samples(struct f2t_out *out, struct f2t_minput *in, bool *first);

/**
 * f2t_mcopy_frames() - copy an input's stackFrames members
 * @out: the output, inside its stackFrames object
 * @in: the input
 * @first: as for f2t_mcopy_events()
 *
 * With in->rename_frames, each id and "parent" becomes "NUM:id" (NUM the
 * input's position), so ids from different inputs cannot collide.
 *
 * Return: 0 or a negative errno (printed).
 */
int f2t_mcopy_frames(struct f2t_out *out, struct f2t_minput *in, bool *first);

/**
 * f2t_mcopy_members() - copy the members of an input's object section
 * @out: the output, inside the merged object
 * @in: the input
 * @sect: F2T_MS_OTHER or F2T_MS_META
 * @seen: member names written so far; one already there is written as
 *	"NAME@NUM" instead, so no value is lost and no name repeats
 * @first: as for f2t_mcopy_events()
 *
 * Return: 0 or a negative errno (printed).
 */
int f2t_mcopy_members(struct f2t_out *out, struct f2t_minput *in, enum f2t_msect sect,
		      struct f2t_strset *seen, bool *first);

/**
 * f2t_mcopy_value() - copy one value of an input verbatim
 * @out: the output
 * @in: the input
 * @at: where the value starts
 *
 * Return: 0 or a negative errno (printed).
 */
int f2t_mcopy_value(struct f2t_out *out, struct f2t_minput *in, const struct f2t_jpos *at);

#endif
