/* SPDX-License-Identifier: MIT */
/*
 * Off-CPU recording (--off-cpu): the BPF programs of bpf/offcpu.bpf.c
 * loaded and attached before tracing starts, their ring buffer copied into
 * the capture as OFFCPU_DATA records while the workload runs (whole
 * records, nothing decoded), the stack map and the counters written at the
 * end (capture/offcpu_rec.h has the layouts).  A build without clang,
 * bpftool or libbpf has only a stub that says so.
 */
#ifndef F2T_OFFCPU_H
#define F2T_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "capture/offcpu_rec.h"
#include "record/sampler.h"
#include "record/window.h"

struct f2t_offcpu_opts {
	uint64_t min_ns;		/* shorter episodes are not kept */
	enum f2t_sample_scope scope;	/* whose episodes (filtered in the kernel) */
	pid_t child;			/* F2T_SCOPE_COMMAND: the held child */
	const pid_t *pids;		/* F2T_SCOPE_PIDS */
	size_t npids;
	uint32_t ustack_bytes;		/* user stack copied per episode, at most (multiple of 8) */
	bool ustack_whole;		/* always that much, not to the frame pointer's frame */
};

/* What the kernel side counted (the per-CPU counters summed). */
struct f2t_offcpu_counts {
	uint64_t n[F2T_OFFCPU_NCOUNTERS];
};

struct f2t_offcpu;

/**
 * f2t_offcpu_open() - load and attach the off-CPU programs
 * @out: the recorder's handle
 * @o: what to record
 * @w: the capture; an OFFCPU_INFO record is written now
 *
 * Prints one line saying what is missing when it fails (no BPF in this
 * build, no BTF, no permission, a program or map the kernel refuses).
 *
 * Return: 0 or negative errno.
 */
int f2t_offcpu_open(struct f2t_offcpu **out, const struct f2t_offcpu_opts *o,
		    struct f2t_capw *w);

/**
 * f2t_offcpu_timeout() - how long the recorder may wait before the next read
 * @oc: the off-CPU recording, or NULL
 * @ms: how long it would wait otherwise
 *
 * Return: @ms, or less while a ring fills (the rings wake nothing).
 */
int f2t_offcpu_timeout(const struct f2t_offcpu *oc, int ms);

/**
 * f2t_offcpu_read() - copy what the rings hold into the capture
 *
 * Return: 0 or negative errno (capture write failure); prints its errors.
 */
int f2t_offcpu_read(struct f2t_offcpu *oc);

/**
 * f2t_offcpu_window() - a flight recorder's: the episodes read go to @win,
 * a chunk per read, not into the capture
 */
void f2t_offcpu_window(struct f2t_offcpu *oc, struct f2t_window *win);

/**
 * f2t_offcpu_capture() - another capture (a flight recorder's next
 * snapshot): OFFCPU_INFO is written into it now, the rest later
 *
 * Return: 0 or negative errno (a capture write error).
 */
int f2t_offcpu_capture(struct f2t_offcpu *oc, struct f2t_capw *w);

/**
 * f2t_offcpu_write_end() - the counts and the stack maps, still attached
 * @counts: out: what the kernel side counted since the last call
 *
 * A flight recorder's snapshot: the programs go on for the next.
 *
 * Return: 0 or negative errno; prints its errors.
 */
int f2t_offcpu_write_end(struct f2t_offcpu *oc, struct f2t_offcpu_counts *counts);

/**
 * f2t_offcpu_finish() - detach, drain, write the stack map and the counts
 * @counts: out: what the kernel side counted
 *
 * Return: 0 or negative errno; prints its errors.
 */
int f2t_offcpu_finish(struct f2t_offcpu *oc, struct f2t_offcpu_counts *counts);

/** f2t_offcpu_close() - detach and free; NULL is fine */
void f2t_offcpu_close(struct f2t_offcpu *oc);

#endif
