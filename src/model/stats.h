/* SPDX-License-Identifier: MIT */
/*
 * What a conversion counted: everything that was lost, dropped, unknown or
 * inconsistent, so it can be printed at the end and written into the trace.
 */
#ifndef F2T_STATS_H
#define F2T_STATS_H

#include <stdint.h>

#include "model/event.h"

#define F2T_MAX_CPUS 1024

struct f2t_stats {
	uint64_t events[F2T_EV_KIND_COUNT];
	uint64_t total_events;
	/* Ring buffer: events the kernel says it dropped (page "missed events"
	 * flags while decoding, plus per_cpu stats "overrun" at stop). */
	uint64_t lost_events;
	uint64_t lost_pages;		/* pages flagged as having missed events */
	uint64_t kernel_overrun;	/* sum of per_cpu/cpuN/stats overrun */
	uint64_t kernel_dropped;	/* sum of per_cpu/cpuN/stats "dropped events" */
	/*
	 * The kernel on some machines does not emit every sched_switch (e.g.
	 * from the idle task): an event from task P on a CPU whose last
	 * switch put Q there.  Counted once per gap, never papered over.
	 */
	uint64_t sched_gaps;
	/*
	 * Every ring-buffer record decoded (emitted or not), against the
	 * kernel's own "read events" count for our instance: they must agree.
	 */
	uint64_t records;
	uint64_t kernel_read;
	uint64_t unknown_events;	/* records whose event id has no format */
	uint64_t bad_records;		/* records we could not decode */
	/* CPU sampling (perf_event_open rings), when recorded */
	uint64_t samples_lost;		/* PERF_RECORD_LOST: records the kernel dropped */
	uint64_t sample_throttles;	/* the kernel throttled sampling this often */
	uint64_t perf_records;		/* perf records decoded, of every type */
	uint64_t perf_bad_records;	/* perf records that did not parse, skipped */
	uint64_t frames;		/* stack frames in samples */
	uint64_t frames_named;		/* ... of which had a function name */
	uint64_t unwind_samples;	/* --call-graph dwarf: user stacks unwound */
	uint64_t unwind_leaf_only;	/* ... of which no caller was found (leaf kept) */
	uint32_t ncpus;
};

#endif
