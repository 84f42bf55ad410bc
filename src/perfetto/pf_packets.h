/* SPDX-License-Identifier: MIT */
/*
 * Builders of Perfetto trace packets: each appends whole Trace.packet
 * fields (one TracePacket each) to a caller's buffer, from facts handed
 * in; no I/O, no state of their own.  The packets the writer (pf_writer.c)
 * puts at the start and the end of a trace are here; scheduling bundles
 * are pf_ftrace.h's, CPU samples pf_samples.h's, items pf_track.h's.
 *
 * Timestamps: a packet's own timestamp is CLOCK_MONOTONIC, the clock we
 * record on, said once per sequence (pf_seq_defaults()) or per packet;
 * ftrace events inside bundles are CLOCK_BOOTTIME, as Perfetto reads
 * them (pf_ftrace.h).
 */
#ifndef F2T_PF_PACKETS_H
#define F2T_PF_PACKETS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/item.h"
#include "model/recording.h"
#include "model/tasks.h"
#include "perfetto/pb.h"

/* The trusted sequences of our files: who writes what. */
enum pf_seq {
	PF_SEQ_TRACKS = 1,	/* process trees, descriptors, track events, stats */
	PF_SEQ_SAMPLES = 2,	/* CPU samples and their interned stacks */
	PF_SEQ_FTRACE = 3,	/* ftrace event bundles */
};

/* A packet's header: the timestamp (if @has_ts), its sequence and flags (0: none). */
struct pf_head {
	bool has_ts;
	uint64_t ts;
	uint32_t seq;
	uint32_t flags;		/* PF_SEQ_* sequence flags */
	uint32_t clock;		/* timestamp_clock_id, 0: the sequence's default */
};

/**
 * pf_packet_open() - start one Trace.packet with @h's fields
 *
 * Return: the body position, for pb_close() once the payload is in.
 */
size_t pf_packet_open(struct pb_buf *b, const struct pf_head *h);

/*
 * pf_packet_open_sized() - pf_packet_open() of a packet whose body past
 * @h's fields, @len bytes, is known beforehand (pb_open_sized()): no
 * pb_close() of it.
 */
void pf_packet_open_sized(struct pb_buf *b, const struct pf_head *h, size_t len);

/**
 * pf_system_info() - the SystemInfo packet: uname (sysname "Linux",
 *		      release, version, machine), CPUs, page size, time zone,
 *		      the recorder
 *
 * trace_processor decodes sched_switch prev_state bits by the release: it
 * must come before any scheduling.
 */
void pf_system_info(struct pb_buf *b, const struct f2t_trace_info *info);

/* The clocks at one instant, in ns (realtime 0: not known, left out). */
struct pf_clocks {
	uint64_t boottime, monotonic, realtime;
};

/**
 * pf_identity() - the recording's identity (model/identity.h), every field
 *		   that SystemInfo has no place for as well, as the metadata
 *		   of a ChromeEventBundle: trace_processor's metadata table
 *		   lists each as "cr-KEY" (strings, and numbers as integers)
 */
void pf_identity(struct pb_buf *b, const struct f2t_trace_info *info);

/**
 * pf_clock_snapshot() - a ClockSnapshot packet relating BOOTTIME,
 *			 MONOTONIC and REALTIME
 */
void pf_clock_snapshot(struct pb_buf *b, const struct pf_clocks *c);

/**
 * pf_seq_clock() - a ClockSnapshot on sequence @seq defining its own clock
 *		    PF_CLOCK_SEQ, which reads 0 at MONOTONIC @base: timestamps
 *		    from the recording's start, three or four bytes shorter
 *		    than MONOTONIC's
 */
void pf_seq_clock(struct pb_buf *b, uint32_t seq, uint64_t base);

/**
 * pf_seq_defaults() - the first packet of a sequence: incremental state
 *		       cleared, and the defaults of its packets
 * @seq: the sequence
 * @clock: the clock of its timestamps (PF_CLOCK_*), 0: the reader's default
 * @perf: also PerfSampleDefaults for this sampling (NULL: none)
 */
void pf_seq_defaults(struct pb_buf *b, uint32_t seq, uint32_t clock,
		     const struct f2t_sampling *perf);

/**
 * pf_annotation() - argument @a as a TrackEvent's DebugAnnotation
 * @name_iid: its name's interned iid (0: the name written out)
 * @str_iid: a string value's interned iid (0: the string written out)
 */
void pf_annotation(struct pb_buf *b, const struct f2t_arg *a, uint64_t name_iid,
		   uint64_t str_iid);

/* pf_annotation_size() - bytes pf_annotation() writes, for a message sized beforehand */
size_t pf_annotation_size(const struct f2t_arg *a, uint64_t name_iid, uint64_t str_iid);

/**
 * pf_process_tree() - a ProcessTree packet at @ts (MONOTONIC): tasks @tids
 *		       of @tasks as threads of their processes, and the ones
 *		       that are their own process as processes
 *
 * The capture keeps no command lines: a process's is its name, and says so
 * (cmdline_is_comm).  Tids not in @tasks and idle tasks (0) are left out.
 */
void pf_process_tree(struct pb_buf *b, uint64_t ts, const struct f2t_tasks *tasks,
		     const int32_t *tids, size_t n);

/**
 * pf_ftrace_stats() - an FtraceStats packet at @ts for every CPU
 * @start: true for the start of the trace (counters of a new instance: 0),
 *	   false for its end (the kernel's own counts, @cpus)
 */
void pf_ftrace_stats(struct pb_buf *b, uint64_t ts, bool start,
		     const struct f2t_cpu_stats *cpus, size_t n);

#endif
