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
#include "perfetto/pf_fields.h"
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
	uint32_t room;			/* compact events every column has room for */
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

/* pf_bundle_compact()'s room, when none is left: for many events.  Return: 0 or -ENOMEM. */
int pf_bundle_make_room(struct pf_bundle *bb);

/* pf_bundle_switch()'s and pf_bundle_waking()'s comm past their memo: interned, and remembered in @m. */
int64_t pf_bundle_comm_intern(struct pf_bundle *bb, struct pf_comm_memo *m, int32_t pid,
			      const char *s);

/*
 * The compact events below are inline, as the tracker's path for them
 * (model/tracker.h): two in three events of a scheduling trace come here,
 * and the calls cost as much as the work.
 */

/* The index of task @pid's @comm, by way of the memo of the last one it had. */
static inline int64_t pf_bundle_comm(struct pf_bundle *bb, int32_t pid, const char *comm,
				     bool words)
{
	struct pf_comm_memo *m = &bb->memo[(uint32_t)pid % PF_COMM_MEMO];
	const char *s = comm ? comm : "";

	if (m->gen == bb->gen && m->pid == pid &&
	    (words && comm ? f2t_comm_eq_words(m->comm, s) : f2t_comm_eq(m->comm, s)))
		return m->index;
	return pf_bundle_comm_intern(bb, m, pid, s);
}

/*
 * Appends one compact event's values, column by column from @first: room
 * is made for many events at once, in all ten columns, and counted down.
 */
static inline int pf_bundle_compact(struct pf_bundle *bb, enum pf_column first,
				    const uint64_t *v)
{
	struct pb_buf *col = &bb->col[first];
	int ret;

	if (!bb->room && (ret = pf_bundle_make_room(bb)))
		return ret;
	bb->room--;
	/* Unrolled: five columns, each with its own branches for its own lengths. */
#pragma GCC unroll 5
	for (int i = 0; i < 5; i++)
		col[i].len += pb_enc_varint(col[i].p + col[i].len, v[i]);
	bb->nevents++;
	return 0;
}

/* Negative int32 as protobuf's int32 has it: sign-extended to ten bytes. */
static inline uint64_t pf_i32(int32_t v)
{
	return (uint64_t)(int64_t)v;
}

/**
 * pf_bundle_switch() - a compact sched_switch at @ts
 * @prev_state: the kernel's raw value for the task switched out
 *
 * Return: 0 or -ENOMEM.
 */
static inline int pf_bundle_switch(struct pf_bundle *bb, uint64_t ts, int64_t prev_state,
				   const struct f2t_event *ev)
{
	int64_t comm = pf_bundle_comm(bb, ev->sw.next_pid, ev->sw.next_comm, ev->comm_words);
	uint64_t v[5];

	if (comm < 0)
		return (int)comm;
	/* Each column's timestamps are deltas, the first from 0. */
	v[0] = ts - bb->last_switch_ts;
	v[1] = (uint64_t)prev_state;
	v[2] = pf_i32(ev->sw.next_pid);
	v[3] = pf_i32(ev->sw.next_prio);
	v[4] = (uint64_t)comm;
	bb->last_switch_ts = ts;
	return pf_bundle_compact(bb, PF_COL_SWITCH_TS, v);
}

/** pf_bundle_waking() - a compact sched_waking at @ts.  Return: 0 or -ENOMEM. */
static inline int pf_bundle_waking(struct pf_bundle *bb, uint64_t ts,
				   const struct f2t_event *ev)
{
	int64_t comm = pf_bundle_comm(bb, ev->wake.pid, ev->wake.comm, ev->comm_words);
	uint64_t v[5];

	if (comm < 0)
		return (int)comm;
	v[0] = ts - bb->last_waking_ts;
	v[1] = pf_i32(ev->wake.pid);
	v[2] = pf_i32(ev->wake.target_cpu);
	v[3] = pf_i32(ev->wake.prio);
	v[4] = (uint64_t)comm;
	bb->last_waking_ts = ts;
	return pf_bundle_compact(bb, PF_COL_WAKING_TS, v);
}

/* Stores a varint field at @p (room made by the caller).  Return: the end. */
static inline uint8_t *pf_put_uint(uint8_t *p, uint32_t field, uint64_t v)
{
	p += pb_enc_tag(p, field, PB_VARINT);
	return p + pb_enc_varint(p, v);
}

/**
 * pf_bundle_wake() - a sched_waking, sched_wakeup or sched_wakeup_new @ev
 *		      whole at @ts, in FtraceEvent's field @field
 *
 * A quarter of a scheduling trace's events are wakeups, which have no
 * compact form: inline, the bytes pb_open() and the others would write,
 * with room made once and no length to move, as a comm of a task's length
 * makes it shorter than 128 bytes.
 *
 * Return: 1 if written, 0 when it is longer: pf_bundle_event() writes it.
 */
static inline int pf_bundle_wake(struct pf_bundle *bb, uint64_t ts, uint32_t field,
				 const struct f2t_event *ev)
{
	enum { ROOM = 11 * PB_MAX_VARINT };
	struct pb_buf *b = &bb->events;
	const char *comm = ev->wake.comm;
	size_t clen = !comm ? 0 : ev->comm_words ? f2t_comm_len_words(comm) :
		      strnlen(comm, F2T_COMM_LEN);
	uint8_t *p, *e, *msg;

	/* Room for a whole comm: one copied whole, its bytes past clen overwritten next. */
	if (clen == F2T_COMM_LEN || !pb_room(b, ROOM + F2T_COMM_LEN))
		return 0;
	p = b->p + b->len;
	p += pb_enc_tag(p, PF_BUNDLE_EVENT, PB_LEN);
	e = p++;
	p = pf_put_uint(p, PF_FEV_TIMESTAMP, ts);
	p = pf_put_uint(p, PF_FEV_PID, (uint32_t)ev->pid);
	p += pb_enc_tag(p, field, PB_LEN);
	msg = p++;
	if (comm) {
		p += pb_enc_tag(p, PF_WAKE_COMM, PB_LEN);
		*p++ = (uint8_t)clen;
		if (ev->comm_words)
			memcpy(p, comm, F2T_COMM_LEN);
		else
			memcpy(p, comm, clen);
		p += clen;
	}
	p = pf_put_uint(p, PF_WAKE_PID, pf_i32(ev->wake.pid));
	p = pf_put_uint(p, PF_WAKE_PRIO, pf_i32(ev->wake.prio));
	p = pf_put_uint(p, PF_WAKE_TARGET_CPU, pf_i32(ev->wake.target_cpu));
	if (p - (e + 1) >= 0x80)
		return 0;
	*msg = (uint8_t)(p - (msg + 1));
	*e = (uint8_t)(p - (e + 1));
	b->len = (size_t)(p - b->p);
	bb->nevents++;
	return 1;
}

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
