/* SPDX-License-Identifier: MIT */
/*
 * Putting the merge's inputs on one clock: each input's offset to the first
 * input's clock, from the clock_sync events they share (or --offset), and
 * which clock_sync events survive into the output.
 */
#ifndef F2T_MERGE_ALIGN_H
#define F2T_MERGE_ALIGN_H

#include <stddef.h>

#include "merge/input.h"

/**
 * f2t_merge_align() - decide every input's offset
 * @ins: the scanned inputs; ins[0] is the reference.  Inputs with
 *	offset_given keep their offset_ns.
 * @n: how many
 *
 * An input is matched with the first already-placed input (the reference
 * first) with which it shares sync ids.  For each shared id the sync point
 * is ts for a receiver, the middle of issue_ts..ts for an issuer (see
 * f2t_msync_time()); the offset is the mean over the shared ids of the
 * difference, and their spread is kept.  Inputs linked only through another
 * input are placed through it.  An input with nothing timed needs no offset.
 *
 * Return: 0, or -EINVAL after printing, for every input that cannot be
 * placed, which sync ids it has and how to give its offset.
 */
int f2t_merge_align(struct f2t_minput *ins, size_t n);

/**
 * f2t_merge_pick_syncs() - choose the clock_sync events to keep
 * @ins: the inputs
 * @n: how many
 *
 * Once merged, all traceEvents share one clock domain, and Trace Viewer
 * refuses a domain holding two clock_sync events with the same id.  Keeps
 * the first event of each id, in input order (so the reference's, which may
 * be paired with a marker line in its own systemTraceEvents).
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_merge_pick_syncs(struct f2t_minput *ins, size_t n);

#endif
