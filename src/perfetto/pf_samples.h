/* SPDX-License-Identifier: MIT */
/*
 * CPU samples as Perfetto's own profiler writes them: PerfSample packets
 * on a trusted sequence of their own, whose first packet clears the
 * incremental state and says what was sampled (PerfSampleDefaults), each
 * sample naming an interned callstack.  The model's definitions
 * (model/profile.h) are kept until a sample first uses them, then
 * interned in its packet: function names, mapping paths, build ids,
 * mappings, frames (a mapping and the address in it, with its name),
 * callstacks (frame ids, root first), iids given in that order, so what
 * only off-CPU stacks use is never written.  Memory grows with distinct
 * stacks, never with samples.
 *
 * Used by the Perfetto writer, and by the FXT writer for blob records
 * that carry Perfetto packets (Perfetto shows no FXT profiler record).
 */
#ifndef F2T_PF_SAMPLES_H
#define F2T_PF_SAMPLES_H

#include <stdint.h>

#include "model/item.h"
#include "model/recording.h"
#include "perfetto/pb.h"

struct pf_samples;

/**
 * pf_samples_new() - an empty sequence
 * @sampling: what was sampled (copied; its strings must outlive the sequence)
 * @mono: timestamps are CLOCK_MONOTONIC and said so (a Perfetto file has
 *	  the clock snapshot to convert them); false: left to the reader's
 *	  default clock, as in FXT, whose own timestamps Perfetto reads so
 *
 * Return: the sequence, or NULL with errno ENOMEM.
 */
struct pf_samples *pf_samples_new(const struct f2t_sampling *sampling, bool mono);
void pf_samples_free(struct pf_samples *s);

/**
 * pf_samples_clock_base() - with @mono, timestamps on a clock of the
 *			     sequence's own that reads 0 at MONOTONIC @base
 *			     (the recording's start; 0: none), before the
 *			     first packet: shorter varints
 *
 * A packet earlier than @base says MONOTONIC itself.
 */
void pf_samples_clock_base(struct pf_samples *s, uint64_t base);

/**
 * pf_samples_item() - a definition of the model's profile, or a CPU sample
 *		       as a packet appended to @b (other items: nothing)
 *
 * Return: 0 or -ENOMEM.
 */
int pf_samples_item(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it);

/**
 * pf_samples_offcpu() - an off-CPU slice (a COMPLETE item of an
 *			 F2T_EV_OFFCPU) as a TrackEvent begin and end on
 *			 track @track, on this sequence
 *
 * The stack it blocked in is the begin's interned callstack, the one
 * trace_processor attaches to the slice (track_event_callstacks) and the
 * UI shows with it; name, category and arguments are interned too, and the
 * derived arguments left out (trace_processor names the waker by its tid).
 * The waker's stack has no place in a TrackEvent: it is not written.
 *
 * Return: 0 or -ENOMEM.
 */
int pf_samples_offcpu(struct pf_samples *s, struct pb_buf *b, const struct f2t_item *it,
		      uint64_t track);

/**
 * pf_samples_lost() - the kernel dropped @count perf records: a PerfSample
 *		       at @ts that says so
 *
 * The capture counts them for the whole run, not per CPU: the packet names
 * no CPU, and trace_processor files the count under CPU 0.
 *
 * Return: 0 or -ENOMEM.
 */
int pf_samples_lost(struct pf_samples *s, struct pb_buf *b, uint64_t ts, uint64_t count);

#endif
