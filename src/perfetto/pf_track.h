/* SPDX-License-Identifier: MIT */
/*
 * The model's items that have no ftrace form in Perfetto, as TrackEvents
 * on the sequence PF_SEQ_TRACKS: slices and instants on their thread's
 * track (the one trace_processor also draws atrace slices on), counters on
 * a counter track of their process, one per name and series, async slices
 * on a track of their process per pairing id, items on the per-CPU pseudo
 * threads on a global track of the pseudo thread's name.  Each track's
 * descriptor is written before its first event, stamped with its time.  Arguments become debug
 * annotations.  Timestamps are the sequence's default clock (MONOTONIC).
 */
#ifndef F2T_PF_TRACK_H
#define F2T_PF_TRACK_H

#include "model/item.h"
#include "model/stats.h"
#include "perfetto/pb.h"

struct pf_tracks;

/* pf_tracks_new() - no track described yet.  Return: NULL with errno ENOMEM. */
struct pf_tracks *pf_tracks_new(void);
void pf_tracks_free(struct pf_tracks *t);

/**
 * pf_tracks_item() - @it as TrackEvent packets appended to @b, after the
 *		      descriptor of its track when that is new
 *
 * NAME items are kept for their pseudo track's descriptor; SAMPLE items
 * are not TrackEvents (pf_samples.h).
 *
 * Return: 0 or -ENOMEM.
 */
int pf_tracks_item(struct pf_tracks *t, struct pb_buf *b, const struct f2t_item *it);

/**
 * pf_tracks_slice_track() - the uuid of the track @it's slices are drawn on
 *			     (its thread's, or its pseudo thread's), its
 *			     descriptor appended to @b first when new
 *
 * Return: 0 or -ENOMEM.
 */
int pf_tracks_slice_track(struct pf_tracks *t, struct pb_buf *b, const struct f2t_item *it,
			  uint64_t *uuid);

/**
 * pf_tracks_stats() - the run's counts (model/stats.h), every one, as the
 *		       arguments of an instant "ftrace2trace_stats" at @ts on
 *		       a global track "ftrace2trace", as the FXT writer has
 *		       them: what trace_processor's own stats cannot say
 *		       (scheduling gaps, unknown records, marker outcomes)
 *
 * Return: 0 or -ENOMEM.
 */
int pf_tracks_stats(struct pf_tracks *t, struct pb_buf *b, uint64_t ts, const struct f2t_stats *st);

#endif
