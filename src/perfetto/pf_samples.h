/* SPDX-License-Identifier: MIT */
/*
 * CPU samples as Perfetto's own profiler writes them: PerfSample packets
 * on a trusted sequence of their own, whose first packet clears the
 * incremental state and says what was sampled (PerfSampleDefaults), each
 * sample naming an interned callstack.  What a sample needs and the
 * sequence does not have yet is interned in the sample's own packet:
 * function names, mapping paths, build ids, mappings (one per process and
 * mapped file; the kernel's shared by all), frames (a mapping and the
 * address in it, with its name), callstacks (frame ids, root first).
 * Memory grows with distinct frames and stacks, never with samples.
 *
 * Used by the Perfetto writer, and by the FXT writer for blob records
 * that carry Perfetto packets (Perfetto shows no FXT profiler record).
 */
#ifndef F2T_PF_SAMPLES_H
#define F2T_PF_SAMPLES_H

#include <stdint.h>

#include "model/event.h"
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
 * pf_samples_add() - one CPU sample, as a packet appended to @b
 * @ev: the sample (F2T_EV_SAMPLE)
 * @pid: its process
 *
 * Return: 0 or -ENOMEM.
 */
int pf_samples_add(struct pf_samples *s, struct pb_buf *b, const struct f2t_event *ev,
		   int32_t pid);

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
