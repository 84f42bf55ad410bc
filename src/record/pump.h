/* SPDX-License-Identifier: MIT */
/*
 * Moves raw ring-buffer sub-buffers from each CPU's trace_pipe_raw into the
 * capture as CPU_DATA records, whole and undecoded.  The caller polls the
 * fds (the kernel wakes them at buffer_percent) and calls f2t_pump_read()
 * for the ready ones; f2t_pump_drain() empties everything after tracing
 * stops, the partly filled last sub-buffers included.
 */
#ifndef F2T_PUMP_H
#define F2T_PUMP_H

#include <stddef.h>
#include <stdint.h>
#include <tracefs.h>

#include "capture/capture.h"

struct f2t_pump_cpu {
	int cpu;
	int fd;			/* per_cpu/cpuN/trace_pipe_raw, non-blocking */
	struct tracefs_cpu *tcpu;
	unsigned char *batch;	/* sub-buffers waiting to become one record */
	size_t used;
	uint64_t bytes;
};

struct f2t_pump {
	struct f2t_capw *w;
	size_t subbuf;		/* bytes per sub-buffer */
	size_t batch_cap;	/* sub-buffers per CPU_DATA record */
	size_t max_per_read;	/* sub-buffers per f2t_pump_read() call */
	struct f2t_pump_cpu *c;
	size_t n;		/* CPUs whose trace_pipe_raw opened */
	uint64_t bytes;		/* sub-buffer bytes written to the capture */
	/* f2t_pump_drain_window(): where the CPUs' windows begin, earliest and latest */
	uint64_t window_min_ns, window_max_ns;
};

/**
 * f2t_pump_open() - open trace_pipe_raw of every CPU of an instance
 * @p: filled in
 * @ti: the instance
 * @ncpus: per_cpu directories to try
 * @subbuf: sub-buffer size in bytes
 * @ring_kb: per-CPU ring size, to bound one read call
 * @w: the capture to append to
 *
 * A CPU whose file cannot be opened (offline) is skipped with a note.
 *
 * Return: 0, or negative errno when no CPU could be opened.
 */
int f2t_pump_open(struct f2t_pump *p, struct tracefs_instance *ti, int ncpus,
		  size_t subbuf, unsigned long ring_kb, struct f2t_capw *w);

/**
 * f2t_pump_read() - move what CPU slot @i has now, without blocking
 *
 * Reads at most one ring's worth, so a busy CPU cannot starve the others.
 * Prints its read errors; a capture write error is the caller's to report
 * (f2t_capw_error()).
 *
 * Return: 0 or negative errno (capture write or read failure).
 */
int f2t_pump_read(struct f2t_pump *p, size_t i);

/**
 * f2t_pump_drain() - after tracing is off, move everything left
 *
 * Prints its errors, as f2t_pump_read().
 *
 * Return: 0 or negative errno.
 */
int f2t_pump_drain(struct f2t_pump *p);

/**
 * f2t_pump_drain_window() - a flight recorder's drain: its window only
 * @from_ns: where the window begins, on the trace clock (0: all it holds)
 * @ring_kb: the per-CPU ring size now: the flight recorder grows the rings
 *           after the pump opened, and the reads are bounded by the size
 *
 * As f2t_pump_drain(), after tracing stopped in an instance that overwrote
 * its oldest data: the sub-buffers that ended before @from_ns are dropped,
 * and the first one read of each CPU, which carries the count of events
 * overwritten since the last read (the past given up, not a loss inside
 * the window), has its missed-events flags cleared.  Sets
 * window_min_ns and window_max_ns: the earliest and the latest of the
 * CPUs' first kept sub-buffer times (a ring that held less than the window
 * begins late).
 *
 * Return: 0 or negative errno.
 */
int f2t_pump_drain_window(struct f2t_pump *p, uint64_t from_ns, unsigned long ring_kb);

/* Closes every fd (so the instance can be removed) and frees. */
void f2t_pump_close(struct f2t_pump *p);

#endif
