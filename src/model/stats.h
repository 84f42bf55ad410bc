/* SPDX-License-Identifier: MIT */
/*
 * The run's counts: everything that was decoded, lost, dropped, unknown or
 * inconsistent, summed by the sources, the tracker and the model.  They are
 * listed once, in f2t_stat_list, which every writer and the summary walk,
 * so the trace files and the terminal always say the same.
 */
#ifndef F2T_STATS_H
#define F2T_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/event.h"

#define F2T_MAX_CPUS 1024

struct f2t_stats {
	uint64_t events[F2T_EV_KIND_COUNT];
	uint64_t total_events;
	/*
	 * Ring buffer losses.  lost_events is the run's one count of them
	 * (f2t_stats_settle_lost()): the larger of what the trace marks where
	 * it happened and what the kernel counted at stop, which holds losses
	 * no page could say (a page flagged with no room for its count, the
	 * events overwritten after the last page read).
	 */
	uint64_t lost_events;
	uint64_t lost_marked;		/* the marks' counts: pages' "missed events", LOST lines */
	uint64_t lost_pages;		/* the marks: pages flagged, LOST lines */
	uint64_t kernel_overrun;	/* per_cpu/cpuN/stats "overrun" + "commit overrun" */
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
	uint64_t samples_no_thread;	/* tid -1 (in a thread's exit), and no switch tells it */
	uint64_t samples_out_of_scope;	/* other processes' samples, left out */
	uint64_t sample_throttles;	/* the kernel throttled sampling this often */
	uint64_t perf_records;		/* perf records decoded, of every type */
	uint64_t perf_bad_records;	/* perf records that did not parse, skipped */
	uint64_t frames;		/* stack frames in samples */
	uint64_t frames_named;		/* ... of which had a function name */
	uint64_t stack_frames;		/* distinct stack-frame nodes (model/stacks.h) */
	uint64_t unwind_samples;	/* --call-graph dwarf: user stacks unwound */
	uint64_t unwind_leaf_only;	/* ... of which no caller was found (leaf kept) */
	/* Off-CPU episodes (record --off-cpu): what the kernel side counted */
	uint64_t offcpu_dropped;	/* episodes lost: BPF ring buffer or map full */
	uint64_t offcpu_stacks_lost;	/* stacks not kept: stack-map hash collisions */
	uint64_t offcpu_stacks_missing;	/* stack ids with no stack in the capture */
	uint64_t offcpu_stacks_rechecked;	/* reused stacks walked again to check them */
	uint64_t offcpu_stacks_stale;	/* ... that came out different (bpf/stacks.bpf.h) */
	uint64_t offcpu_unwound;	/* off-CPU user stacks unwound from their copy */
	uint64_t offcpu_unwound_leaf_only;	/* ... of which no caller was found */
	/* trace_marker writes (model/marker_track.h) */
	uint64_t markers;
	uint64_t markers_malformed;		/* kept as instants */
	uint64_t markers_unmatched_ends;	/* E with nothing open: dropped */
	uint64_t markers_unmatched_async_ends;	/* F/H with nothing open: dropped */
	uint64_t markers_repeated_sync_ids;	/* kept as instants */
	uint64_t markers_open_slices;		/* B never ended */
	uint64_t markers_open_async;		/* S/G never ended */
	uint64_t funcgraph_exits_without_entry;	/* shown as complete slices */
	/* Kernel times of the recorder's own clock sync markers, 0 if unseen. */
	uint64_t sync_start_trace_ns, sync_end_trace_ns;
	uint32_t ncpus;
};

/* One count as the trace files name it. */
struct f2t_stat_desc {
	const char *name;
	size_t offset;		/* of its uint64_t in struct f2t_stats */
};

/* Every count, in the order the outputs list them. */
extern const struct f2t_stat_desc f2t_stat_list[];
extern const size_t f2t_stat_count;

static inline uint64_t f2t_stat_value(const struct f2t_stats *st, const struct f2t_stat_desc *d)
{
	return *(const uint64_t *)((const char *)st + d->offset);
}

/* f2t_stats_add() - adds every count of f2t_stat_list in @from to @to's */
void f2t_stats_add(struct f2t_stats *to, const struct f2t_stats *from);

/**
 * f2t_stats_settle_lost() - the one loss count, once every source has counted
 *
 * lost_events becomes the largest of itself, lost_marked and the kernel's
 * count (kernel_overrun + kernel_dropped): the same figure `record` prints
 * from the kernel's stats at stop.  lost_events - lost_marked is how many
 * of them the trace cannot place.
 */
void f2t_stats_settle_lost(struct f2t_stats *st);

#endif
