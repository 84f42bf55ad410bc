/* SPDX-License-Identifier: MIT */
/*
 * Kernel events as Perfetto has its own recordings carry them: one
 * FtraceEventBundle per CPU per chunk, sched_switch and sched_waking in the
 * compact form (CompactSched: columns of delta timestamps, pids, prios,
 * raw prev_state bits and comms interned per bundle), every other event as
 * an FtraceEvent with its timestamp and common pid.  trace_processor then
 * builds from them what it builds for its own traces: the per-CPU
 * scheduling tracks, each thread's states with its wakers, irq and softirq
 * slices, cpu_idle and cpu_frequency counters, atrace slices from print.
 *
 * The compact form leaves things out that trace_processor infers, so it is
 * only right under conditions the caller checks (pf_writer.c): a compact
 * switch's previous task is the one the CPU's last switch put there; a
 * compact waking's waker is the task running on the bundle's CPU.
 *
 * Timestamps here are CLOCK_BOOTTIME, as trace_processor reads ftrace's.
 */
#ifndef F2T_PF_FTRACE_H
#define F2T_PF_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "model/event.h"
#include "model/tasks.h"
#include "perfetto/pb.h"
#include "util/intern.h"

/* CompactSched's columns, in the order they are written. */
enum pf_column {
	PF_COL_SWITCH_TS, PF_COL_SWITCH_STATE, PF_COL_SWITCH_PID, PF_COL_SWITCH_PRIO,
	PF_COL_SWITCH_COMM, PF_COL_WAKING_TS, PF_COL_WAKING_PID, PF_COL_WAKING_CPU,
	PF_COL_WAKING_PRIO, PF_COL_WAKING_COMM, PF_NCOLUMNS
};

/* A task's comm and its index in the bundle's intern table, looked up last. */
struct pf_comm_memo {
	int32_t pid;
	uint32_t index;
	uint32_t gen;			/* the bundle's, when it was looked up */
	char comm[F2T_COMM_LEN];
};

#define PF_COMM_MEMO 256

/* One CPU's bundle being filled. */
struct pf_bundle {
	uint32_t cpu;
	bool lost;			/* the CPU lost events since the last bundle */
	uint32_t nevents;		/* compact and whole, since the last flush */
	uint32_t gen;			/* 1, 2, ...: one per bundle written */
	uint64_t last_switch_ts, last_waking_ts;
	struct pb_buf col[PF_NCOLUMNS];	/* packed varints */
	struct pb_buf events;		/* FtraceEvent fields, each whole */
	struct pb_buf frame;		/* what pf_bundle_pieces() adds around the buffers */
	struct f2t_intern comms;	/* the comms the compact events name, by index */
	/* Most events name the few tasks that run there: asked by pid first. */
	struct pf_comm_memo memo[PF_COMM_MEMO];
};

/* pf_bundle_init() - an empty bundle for @cpu.  Return: 0 or -ENOMEM. */
int pf_bundle_init(struct pf_bundle *bb, uint32_t cpu);
void pf_bundle_fini(struct pf_bundle *bb);

/* Time to write the bundle out: this many events, or this many bytes of whole ones. */
static inline bool pf_bundle_full(const struct pf_bundle *bb)
{
	return bb->nevents >= 8192 || bb->events.len >= (64u << 10);
}

/**
 * pf_bundle_switch() - a compact sched_switch at @ts
 * @prev_state: the kernel's raw value for the task switched out
 *
 * Return: 0 or -ENOMEM.
 */
int pf_bundle_switch(struct pf_bundle *bb, uint64_t ts, int64_t prev_state,
		     const struct f2t_event *ev);

/** pf_bundle_waking() - a compact sched_waking at @ts.  Return: 0 or -ENOMEM. */
int pf_bundle_waking(struct pf_bundle *bb, uint64_t ts, const struct f2t_event *ev);

/**
 * pf_bundle_event() - @ev as a whole FtraceEvent at @ts
 *
 * For the events Perfetto has a message for (every kind but LOST, SAMPLE
 * and the function tracers'); any other tracepoint becomes a
 * GenericFtraceEvent with its fields.  A print event's text is @ev's.
 *
 * Return: 1 if written, 0 if @ev has no ftrace form, -ENOMEM.
 */
int pf_bundle_event(struct pf_bundle *bb, uint64_t ts, const struct f2t_event *ev);

/**
 * pf_bundle_print() - a print event with the text @buf (what @ev wrote,
 *		       or what the writer made of it)
 *
 * Return: 0 or -ENOMEM.
 */
int pf_bundle_print(struct pf_bundle *bb, uint64_t ts, int32_t pid, const char *buf,
		    size_t len);

/*
 * The most pieces a bundle is written in: the packet's head, the whole
 * events, then each column after the bytes before it (the compact form's
 * head and comms before the first).
 */
#define PF_BUNDLE_PIECES (2 + 2 * PF_NCOLUMNS)

/**
 * pf_bundle_pieces() - the bundle as one packet on sequence @seq, in pieces
 * @iov: filled with where the packet's bytes are, in order: the bundle's
 *	 own buffers, not copied, and a head made here
 *
 * The pieces stay as they are until pf_bundle_clear().  A bundle with no
 * events and no loss has none.
 *
 * Return: the number of pieces (PF_BUNDLE_PIECES at most), or -ENOMEM.
 */
int pf_bundle_pieces(struct pf_bundle *bb, uint32_t seq, struct iovec *iov);

/* pf_bundle_clear() - empty the bundle for the next chunk, once its pieces are written */
void pf_bundle_clear(struct pf_bundle *bb);

#endif
