/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by model.c (the dispatch, samples, pseudo tracks),
 * kernel_items.c (function calls, irqs, power, tracepoints) and
 * marker_items.c (trace_marker writes).
 */
#ifndef F2T_MODEL_LOCAL_H
#define F2T_MODEL_LOCAL_H

#include <stdbool.h>

#include "model/cpu_tracks.h"
#include "model/cputime.h"
#include "model/fgraph.h"
#include "model/marker_track.h"
#include "model/model.h"
#include "model/profile.h"

#define F2T_MODEL_TEXT_MAX 160	/* names the model makes up ("IRQ (name)", "sys:event") */

struct f2t_model {
	const struct f2t_recording *rec;
	struct f2t_mtrack *markers;
	struct f2t_cpu_tracks *cpus;
	struct f2t_fgraph *fg;
	struct f2t_profile *profile;
	struct f2t_cputime *cputime;
	bool no_offcpu;		/* F2T_TEST_OFFCPU_DRAW_NONE: episodes drawn nowhere */
	/* Pseudo tracks already named (F2T_ITEM_NAME sent). */
	bool cpus_named;
	uint8_t named[F2T_MAX_CPUS];
	/* Kernel times of the recorder's own clock sync markers, 0 unseen. */
	uint64_t sync_start_ts, sync_end_ts;
	/* The last print event's record: what its event stands for (f2t_model_print()). */
	struct f2t_mrecord mark;

	/* The event being modelled: where its items go. */
	f2t_item_fn emit;
	void *ctx;
	/* Scratch for the items of one event. */
	struct f2t_arg args[F2T_ITEM_MAX_ARGS];
	char text[F2T_MODEL_TEXT_MAX];
	char series[24];
};

/* Sends @it to the writers. */
static inline int f2t_model_put(struct f2t_model *m, const struct f2t_item *it)
{
	return m->emit(m->ctx, it);
}

/* The stack of @frames for @use (model/profile.h), its definitions sent first. */
static inline int f2t_model_stack(struct f2t_model *m, const struct f2t_frame *frames,
				  uint32_t n, bool named, const struct f2t_item *use,
				  struct f2t_stack_ref *ref)
{
	return f2t_profile_stack(m->profile, use->track.pid, frames, n, named, use, m->emit,
				 m->ctx, ref);
}

/* A NUL-terminated string as an item string. */
static inline struct f2t_str f2t_s(const char *s)
{
	return (struct f2t_str){ s, s ? __builtin_strlen(s) : 0 };
}

/*
 * The track of a task's own events: its thread in its process, or for an
 * idle task (pid 0, one per CPU) the CPU's "swapper/N" pseudo thread, named
 * first if this is its first use.
 */
int f2t_model_task_track(struct f2t_model *m, int32_t pid, uint32_t cpu, uint64_t ts,
			 struct f2t_track *track);

/* The process of thread @tid, as the task table knows it now. */
int32_t f2t_model_process_of(const struct f2t_model *m, int32_t tid);

/* CPU @cpu's "irq cpuN" pseudo thread, named first if this is its first use. */
int f2t_model_irq_track(struct f2t_model *m, uint32_t cpu, uint64_t ts, struct f2t_track *track);

/* The pseudo process "CPUs", named first if this is its first use. */
int f2t_model_cpus_track(struct f2t_model *m, uint64_t ts, struct f2t_track *track);

/* Items for the kernel's own events (kernel_items.c); 0 for other kinds. */
int f2t_model_kernel_event(struct f2t_model *m, const struct f2t_event *ev);

/* The slice of an off-CPU episode (offcpu_items.c). */
int f2t_model_offcpu_event(struct f2t_model *m, const struct f2t_event *ev);

/* Items for a trace_marker write (marker_items.c). */
int f2t_model_marker_event(struct f2t_model *m, const struct f2t_event *ev);

#endif
