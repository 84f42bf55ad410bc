/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by pftrace_index.c (the walk of a Perfetto trace's
 * packets into an index of its events) and pftrace_input.c (the input and
 * its source, which hands the indexed events out in time order).
 *
 * A Perfetto trace is not in time order: each CPU's ftrace bundles are,
 * samples and track events are per sequence, and the chunks of all of them
 * interleave as the tracing service wrote its buffers.  So the file is
 * walked once at open, every event kept as a record of a few words (where
 * its bytes are, or the values a compact event packs), and the records
 * sorted by time; the events are decoded from the mapping as they are
 * handed out.  Interned data (sequence-scoped, reset when a packet says its
 * sequence's incremental state was cleared) is resolved during the walk
 * into tables of the whole file, so a record needs no sequence's state.
 */
#ifndef F2T_PFTRACE_LOCAL_H
#define F2T_PFTRACE_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/recording.h"
#include "model/stats.h"
#include "util/idmap.h"
#include "util/inmap.h"
#include "util/intern.h"

enum pft_kind {
	PFT_FTRACE,		/* an FtraceEvent, decoded when handed out */
	PFT_CSWITCH,		/* a compact sched_switch */
	PFT_CWAKING,		/* a compact sched_waking */
	PFT_LOST,		/* a bundle that says ftrace lost events before it */
	PFT_SAMPLE,		/* a PerfSample with a callstack */
	PFT_TRACK,		/* a TrackEvent: slice begin, end, instant, counter */
};

/* Clocks a timestamp is on: Perfetto's builtin clock ids, and ftrace's own. */
enum {
	PFT_CLOCK_FTRACE = 0,	/* a bundle's: CLOCK_BOOTTIME unless the bundle says */
	PFT_CLOCK_MAX = 64,	/* from here on: sequence-scoped clocks */
};

struct pft_rec {
	uint64_t ts;
	uint32_t order;		/* in the file, for equal times */
	uint32_t cpu;
	uint8_t kind, clock;
	union {
		struct {
			uint64_t off;	/* FtraceEvent bytes, in the file */
			uint32_t len;
		} ev;
		struct {	/* CSWITCH (next_*), CWAKING */
			int32_t pid, prio, target_cpu;
			uint32_t comm;		/* in strs */
			int64_t state;
		} cs;
		struct {
			int32_t pid, tid;
			uint32_t stack;		/* in stacks */
			uint32_t event;		/* what was sampled, in strs */
			uint64_t period;
		} smp;
		struct {
			uint64_t track;		/* the track's uuid */
			int64_t value;		/* a counter's, times 1000 when double */
			uint32_t name;		/* in strs */
			uint8_t type;		/* PF_TE_SLICE_BEGIN ... */
			bool is_double;
		} te;
	};
};

/* A mapping of the whole file, from a sequence's interned Mapping. */
struct pft_map {
	uint32_t path, build_id;	/* in strs; build_id the hex, "" if none */
	uint64_t start, end, pgoff;
};

/* A frame of the whole file: function name (in strs, UINT32_MAX: none), mapping (0: none). */
struct pft_frame {
	uint32_t func, map;
	uint64_t rel_pc;
};

/* A track from a TrackDescriptor: a thread's, a process's or a named one. */
struct pft_track {
	int32_t pid, tid;	/* tid 0: not a thread's; pid 0: not a process's either */
	uint32_t name;		/* in strs */
	/*
	 * Its slices open, in the file's order: DEPTH of them; bit i of
	 * OFFCPU set when the one at depth i is our writer's off-CPU slice,
	 * whose end (which names no category) is left out with it.
	 */
	uint32_t depth;
	uint64_t offcpu;
};

struct pft_index {
	const char *path;
	const uint8_t *data;		/* the file, mapped */
	size_t len;

	struct pft_rec *recs;
	size_t nrecs, reccap;

	struct f2t_intern strs;		/* every string the records name, NUL-terminated */
	struct pft_map **maps;		/* by id - 1 (each apart: f2t_frame.mod points at it) */
	size_t nmaps, mapcap;
	struct pft_frame *frames;	/* by id - 1 */
	size_t nframes, framecap;
	uint32_t *stack_frames;		/* each stack's frame ids, innermost first */
	size_t nstack_frames, stack_framecap;
	struct { uint32_t first, n; } *stacks;	/* by id */
	size_t nstacks, stackcap;
	struct f2t_idmap tracks;	/* uuid -> struct pft_track */
	struct f2t_idmap seqs;		/* trusted sequence id -> struct pft_seq * */

	/* Clock snapshot: each builtin clock's value at the first snapshot's instant. */
	bool have_snapshot;
	uint64_t clock_at[PFT_CLOCK_MAX];
	bool clock_known[PFT_CLOCK_MAX];
	bool ftrace_clock_other;	/* a bundle said its clock is not the boot clock */

	struct f2t_trace_info info;
	char *kernel, *machine;
	/*
	 * What our own writer adds (model/identity.h, as a ChromeEventBundle's
	 * metadata): NULL where the trace does not say.
	 */
	char *host, *kernel_version, *boot_id, *cpu_model, *cmdline, *recorder, *clock;
	int64_t start_ns, realtime_ns, tz_offset_min;
	bool has_start, has_realtime, has_tz;
	struct f2t_tasks *tasks;	/* seeded: process trees, descriptors, stats */
	struct f2t_stats st;		/* what the walk counted */
	uint64_t skipped_clock;		/* packets on a sequence clock not defined (or incremental): left out */
	uint64_t skipped_tracks;	/* track events of kinds not read */
	uint64_t skipped_offcpu;	/* our writer's off-CPU slices, not read back */
	uint64_t process_stats;		/* ProcessStats packets */
	uint32_t max_cpu;
	bool any_cpu;
};

/**
 * pft_index_build() - walk every packet of @ix->data into @ix
 *
 * Reports damage (file and offset) and returns -EINVAL; -ENOMEM.  The
 * records are sorted by time, on one clock, when it returns 0.
 */
int pft_index_build(struct pft_index *ix);

/* pft_index_fini() - frees what the walk made */
void pft_index_fini(struct pft_index *ix);

/* The letters sched_switch prints for a prev_state value (Linux 4.14 on). */
void pft_state_letters(int64_t state, char *out);

#endif
