/* SPDX-License-Identifier: MIT */
/*
 * Kernel activity as FXT event records, for the FXT writer:
 *  - function tracer calls: instant events on the calling thread, named
 *    for the function, with the caller as argument "caller";
 *  - function_graph calls: duration begin/end on the calling thread,
 *    nested as the calls were (model/fgraph.h decides; a call whose entry
 *    came before the trace is one duration complete event);
 *  - irq and softirq handlers: duration begin/end on the pseudo thread
 *    "irq cpuN" of the pseudo process "CPUs" (model/pseudo.h), nested as
 *    they interrupted each other (model/cpu_tracks.h);
 *  - power:cpu_idle and cpu_frequency: counter events of that process,
 *    named "cpu_idle" / "cpu_frequency" with one argument "cpuN" and
 *    counter id N, which Perfetto draws as tracks "cpu_idle:cpuN:N";
 *  - any other tracepoint: its fields as the arguments of its instant.
 * The idle tasks' calls go to pseudo threads "swapper/N" of "CPUs": all
 * idle tasks share pid 0, and one track would interleave every CPU's.
 */
#ifndef F2T_FXT_KERNEL_H
#define F2T_FXT_KERNEL_H

#include <stdint.h>

#include "fxt/fxt_enc.h"
#include "output/writer.h"

/*
 * What the FXT writer lends this module: its string and thread tables and
 * its output, so the records here share them with the writer's own.
 */
struct fxt_kernel_io {
	/* A ref for the string, writing its string record first when new. */
	int (*string_ref)(struct f2t_writer *w, const char *s, size_t len, struct fxt_str *ref);
	/* A ref for the thread, writing its thread record first when new. */
	int (*thread_ref)(struct f2t_writer *w, uint64_t pid, uint64_t tid,
			  struct fxt_thread *ref);
	/* The task @tid, named in the file before any record uses it. */
	int (*ensure_named)(struct f2t_writer *w, int32_t tid, struct f2t_task **t);
	/* Appends @n words to the output. */
	void (*emit)(struct f2t_writer *w, const uint64_t *words, int n);
};

struct fxt_kernel;

/**
 * fxt_kernel_new() - state for one FXT writer
 * @io: the writer's helpers; must outlive the state
 *
 * Return: the state, or NULL with errno set (ENOMEM).
 */
struct fxt_kernel *fxt_kernel_new(const struct fxt_kernel_io *io);

/** fxt_kernel_free() - free @k; NULL is fine */
void fxt_kernel_free(struct fxt_kernel *k);

/**
 * fxt_kernel_event() - the records for one kernel event
 * @k: the state
 * @w: the FXT writer
 * @ev: F2T_EV_FUNCTION .. F2T_EV_CPU_FREQ, or F2T_EV_LOST (ends the irq
 *	slices open on its CPU, whose exits may be among what was lost);
 *	other kinds write nothing
 *
 * Return: 0 or negative errno.
 */
int fxt_kernel_event(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev);

/**
 * fxt_kernel_fields() - a tracepoint's fields as event arguments
 * @k: the state (its buffer holds the argument words)
 * @w: the FXT writer (field names are interned in its string table)
 * @ev: an F2T_EV_OTHER event
 * @args: set to the arguments, valid until the next call: up to the
 *	format's 15, numbers as int64, text as inline strings (cut at 256
 *	bytes), fields beyond that dropped
 *
 * Return: 0 or negative errno.
 */
int fxt_kernel_fields(struct fxt_kernel *k, struct f2t_writer *w, const struct f2t_event *ev,
		      struct fxt_args *args);

#endif
