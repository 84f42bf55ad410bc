// SPDX-License-Identifier: MIT
/* The one list of the run's counts (stats.h). */
#include "model/stats.h"

#define STAT(name, member) { name, offsetof(struct f2t_stats, member) }

const struct f2t_stat_desc f2t_stat_list[] = {
	STAT("events", total_events),
	STAT("sched_switch", events[F2T_EV_SWITCH]),
	STAT("sched_waking", events[F2T_EV_WAKING]),
	STAT("sched_wakeup", events[F2T_EV_WAKEUP]),
	STAT("markers", markers),
	STAT("markers_malformed", markers_malformed),
	STAT("markers_unmatched_ends", markers_unmatched_ends),
	STAT("markers_unmatched_async_ends", markers_unmatched_async_ends),
	STAT("markers_repeated_sync_ids", markers_repeated_sync_ids),
	STAT("markers_open_slices", markers_open_slices),
	STAT("markers_open_async", markers_open_async),
	STAT("funcgraph_exits_without_entry", funcgraph_exits_without_entry),
	STAT("lost_events", lost_events),
	STAT("lost_marked", lost_marked),
	STAT("lost_pages", lost_pages),
	STAT("kernel_overrun", kernel_overrun),
	STAT("kernel_dropped", kernel_dropped),
	STAT("sched_gaps", sched_gaps),
	STAT("unknown_events", unknown_events),
	STAT("bad_records", bad_records),
	STAT("samples", events[F2T_EV_SAMPLE]),
	STAT("stack_frames", stack_frames),
	STAT("samples_lost", samples_lost),
	STAT("samples_no_thread", samples_no_thread),
	STAT("samples_out_of_scope", samples_out_of_scope),
	STAT("sample_throttles", sample_throttles),
	STAT("perf_records", perf_records),
	STAT("perf_bad_records", perf_bad_records),
	STAT("frames", frames),
	STAT("frames_named", frames_named),
	STAT("unwind_samples", unwind_samples),
	STAT("unwind_leaf_only", unwind_leaf_only),
	STAT("offcpu", events[F2T_EV_OFFCPU]),
	STAT("offcpu_dropped", offcpu_dropped),
	STAT("offcpu_stacks_lost", offcpu_stacks_lost),
	STAT("offcpu_stacks_missing", offcpu_stacks_missing),
	STAT("offcpu_stacks_rechecked", offcpu_stacks_rechecked),
	STAT("offcpu_stacks_stale", offcpu_stacks_stale),
	/* Records decoded against the kernel's own count of what it handed out. */
	STAT("records", records),
	STAT("kernel_read", kernel_read),
};

const size_t f2t_stat_count = sizeof(f2t_stat_list) / sizeof(f2t_stat_list[0]);

void f2t_stats_add(struct f2t_stats *to, const struct f2t_stats *from)
{
	for (size_t i = 0; i < f2t_stat_count; i++)
		*(uint64_t *)((char *)to + f2t_stat_list[i].offset) +=
			f2t_stat_value(from, &f2t_stat_list[i]);
}

void f2t_stats_settle_lost(struct f2t_stats *st)
{
	uint64_t kernel = st->kernel_overrun + st->kernel_dropped;

	if (st->lost_marked > st->lost_events)
		st->lost_events = st->lost_marked;
	if (kernel > st->lost_events)
		st->lost_events = kernel;
}
