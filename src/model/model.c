// SPDX-License-Identifier: MIT
/*
 * The model's dispatch, its pseudo tracks and its samples.  Kernel events
 * are kernel_items.c's, markers marker_items.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model-local.h"
#include "model/pseudo.h"

struct f2t_model *f2t_model_new(const struct f2t_recording *rec, const char *own_sync_id)
{
	struct f2t_model *m = calloc(1, sizeof(*m));

	if (!m)
		goto nomem;
	m->rec = rec;
	/* Test hook: what the outputs cost without the episodes (their bytes per episode). */
	m->no_offcpu = getenv("F2T_TEST_OFFCPU_DRAW_NONE") != NULL;
	m->markers = f2t_mtrack_new();
	m->cpus = f2t_cpu_tracks_new();
	m->fg = f2t_fgraph_new();
	m->profile = f2t_profile_new();
	if (!m->markers || !m->cpus || !m->fg || !m->profile)
		goto nomem;
	if (own_sync_id && *own_sync_id && f2t_mtrack_reserve_sync_id(m->markers, own_sync_id))
		goto nomem;
	return m;
nomem:
	f2t_model_free(m);
	errno = ENOMEM;
	return NULL;
}

void f2t_model_free(struct f2t_model *m)
{
	if (!m)
		return;
	f2t_mtrack_free(m->markers);
	f2t_cpu_tracks_free(m->cpus);
	f2t_fgraph_free(m->fg);
	f2t_profile_free(m->profile);
	f2t_cputime_free(m->cputime);
	free(m);
}

/* The NAME item for a pseudo track. */
static int name_track(struct f2t_model *m, const struct f2t_track *track, uint64_t ts,
		      const char *name)
{
	struct f2t_item it = {
		.kind = F2T_ITEM_NAME, .ts = ts, .track = *track, .name = f2t_s(name),
	};

	return f2t_model_put(m, &it);
}

int f2t_model_cpus_track(struct f2t_model *m, uint64_t ts, struct f2t_track *track)
{
	*track = (struct f2t_track){ F2T_TRACK_CPUS, F2T_PSEUDO_PID, F2T_PSEUDO_PID, 0 };
	if (m->cpus_named)
		return 0;
	m->cpus_named = true;
	return name_track(m, track, ts, F2T_PSEUDO_PROCESS_NAME);
}

enum { NAMED_IRQ = 1, NAMED_IDLE = 2 };

/* CPU's "irq cpuN" (or, IDLE, "swapper/N") pseudo thread. */
static int pseudo_thread(struct f2t_model *m, uint32_t cpu, bool idle, uint64_t ts,
			 struct f2t_track *track)
{
	uint8_t bit = idle ? NAMED_IDLE : NAMED_IRQ;
	struct f2t_track cpus;
	char name[32];
	int ret;

	if (cpu >= F2T_MAX_CPUS)
		return -ERANGE;	/* sources bound their CPUs; m->named is indexed by it */
	ret = f2t_model_cpus_track(m, ts, &cpus);
	if (ret)
		return ret;
	*track = (struct f2t_track){
		.kind = idle ? F2T_TRACK_CPU_IDLE : F2T_TRACK_CPU_IRQ,
		.pid = F2T_PSEUDO_PID,
		.tid = idle ? F2T_PSEUDO_IDLE_TID(cpu) : F2T_PSEUDO_IRQ_TID(cpu),
		.cpu = cpu,
	};
	if (m->named[cpu] & bit)
		return 0;
	m->named[cpu] |= bit;
	snprintf(name, sizeof(name), idle ? "swapper/%u" : "irq cpu%u", cpu);
	return name_track(m, track, ts, name);
}

int f2t_model_irq_track(struct f2t_model *m, uint32_t cpu, uint64_t ts, struct f2t_track *track)
{
	return pseudo_thread(m, cpu, false, ts, track);
}

int f2t_model_task_track(struct f2t_model *m, int32_t pid, uint32_t cpu, uint64_t ts,
			 struct f2t_track *track)
{
	if (pid <= 0)
		return pseudo_thread(m, cpu, true, ts, track);
	*track = (struct f2t_track){ F2T_TRACK_THREAD, f2t_model_process_of(m, pid), pid, 0 };
	return 0;
}

int32_t f2t_model_process_of(const struct f2t_model *m, int32_t tid)
{
	const struct f2t_task *t = tid > 0 ? f2t_tasks_find(m->rec->tasks, tid) : NULL;

	/* A task whose process is not known yet is its own process, as /proc would say. */
	return t && t->tgid > 0 ? t->tgid : tid;
}

/* A sample: its stack interned once for every writer. */
static int sample(struct f2t_model *m, const struct f2t_event *ev)
{
	int32_t pid = ev->sample.tgid > 0 ? ev->sample.tgid : ev->pid;
	struct f2t_item it = {
		.kind = F2T_ITEM_SAMPLE, .ts = ev->ts, .ev = ev,
		.track = { F2T_TRACK_THREAD, pid > 0 ? pid : 0, ev->pid > 0 ? ev->pid : 0, 0 },
	};

	int ret = f2t_model_stack(m, ev->sample.frames, ev->sample.nframes, true, &it, &it.stack);

	return ret ? ret : f2t_model_put(m, &it);
}

int f2t_model_event(struct f2t_model *m, const struct f2t_event *ev, f2t_item_fn emit,
		    void *ctx)
{
	/* CPU time comes from switches (and is lost with lost events). */
	if (m->cputime && (ev->kind == F2T_EV_SWITCH || ev->kind == F2T_EV_LOST) &&
	    f2t_cputime_event(m->cputime, ev))
		return -ENOMEM;
	if (f2t_model_sched_only(ev->kind))
		return 0;
	m->emit = emit;
	m->ctx = ctx;
	switch (ev->kind) {
	case F2T_EV_PRINT:
		return f2t_model_marker_event(m, ev);
	case F2T_EV_SAMPLE:
		return sample(m, ev);
	case F2T_EV_OFFCPU:
		return m->no_offcpu ? 0 : f2t_model_offcpu_event(m, ev);
	default:
		return f2t_model_kernel_event(m, ev);
	}
}

void f2t_model_counts(const struct f2t_model *m, struct f2t_stats *st)
{
	struct f2t_mcounts c;

	f2t_mtrack_counts(m->markers, &c);
	st->markers = c.markers;
	st->markers_malformed = c.malformed;
	st->markers_unmatched_ends = c.unmatched_ends;
	st->markers_unmatched_async_ends = c.unmatched_async_ends;
	st->markers_repeated_sync_ids = c.repeated_sync_ids;
	st->markers_open_slices = c.open_slices;
	st->markers_open_async = c.open_async;
	st->funcgraph_exits_without_entry = f2t_fgraph_unmatched(m->fg);
	st->stack_frames = f2t_profile_nodes(m->profile);
	st->sync_start_trace_ns = m->sync_start_ts;
	st->sync_end_trace_ns = m->sync_end_ts;
}

int f2t_model_count_cputime(struct f2t_model *m)
{
	if (!m->cputime)
		m->cputime = f2t_cputime_new(m->rec->tasks);
	return m->cputime ? 0 : -ENOMEM;
}

const struct f2t_cputime *f2t_model_cputime(const struct f2t_model *m)
{
	return m->cputime;
}

void f2t_model_report(const struct f2t_model *m)
{
	f2t_mtrack_report(m->markers);
}

const struct f2t_mprint *f2t_model_print(const struct f2t_model *m)
{
	return &m->mark.print;
}
