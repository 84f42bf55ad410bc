// SPDX-License-Identifier: MIT
/*
 * The Perfetto writer: a Trace (a stream of TracePackets) that Perfetto UI
 * shows as it shows its own recordings.  In file order:
 *  - SystemInfo (the kernel release decides how prev_state bits read),
 *    a ClockSnapshot relating BOOTTIME, MONOTONIC and REALTIME, the
 *    sequence's defaults, FtraceStats of the start;
 *  - then, as events come: ftrace bundles per CPU (pf_ftrace.h), CPU
 *    samples and off-CPU slices with their interned stacks (pf_samples.h),
 *    TrackEvents for what has no ftrace form (pf_track.h); markers as print events where the model says
 *    trace_processor reads them as it does (model/marker_track.h), as
 *    TrackEvents from their items otherwise;
 *  - at the end: the last bundles, lost perf records, FtraceStats, the
 *    run's counts (an instant "ftrace2trace_stats", pf_track.h), and a
 *    ProcessTree of the threads alive at the start, stamped with the
 *    start: it names them as they were last known (trace_processor keeps
 *    a ProcessTree's names over ftrace's, so names from the start would
 *    hide what a thread became: a command's process named after the
 *    recorder that forked it, a kernel worker after the workqueue /proc
 *    showed), as the other formats do.
 *
 * Clocks: we record on CLOCK_MONOTONIC; trace_processor reads ftrace
 * timestamps as CLOCK_BOOTTIME.  Ftrace events are shifted by the
 * boottime - monotonic offset the recorder measured; every other packet
 * keeps its MONOTONIC timestamp and says so.  What trace_processor makes
 * of it all: docs/viewers.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/writer.h"
#include "perfetto/pf_fields.h"
#include "perfetto/pf_ftrace.h"
#include "perfetto/pf_packets.h"
#include "perfetto/pf_samples.h"
#include "perfetto/pf_track.h"
#include "util/log.h"
#include "util/vec.h"

/*
 * The output buffer is handed to the output when this full.  The fuzz
 * build's is smaller, as util/out.c's: inputs reach the write more often,
 * and ASan does not copy a buffer growing to a megabyte, each step a fresh
 * mapping, for each input.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define OUT_BYTES	(1u << 14)
#else
#define OUT_BYTES	(1u << 20)
#endif
/* CPUs held: 16 times the kernel's NR_CPUS at most, so that no number makes a giant table. */
#define PF_CPU_LIMIT	(1u << 17)
/* A suspend between the recorder's two clock reads moves boottime this much at least. */
#define SUSPEND_NS	1000000ll

struct pf_cpu {
	struct pf_bundle bundle;
	/* The task this CPU's last switch put there, as written; -1: none yet. */
	int32_t running;
};

struct pf_priv {
	struct pb_buf buf;		/* packets not yet handed to the output */
	struct pf_cpu **cpus;		/* by CPU number, grown as CPUs come */
	size_t ncpus;			/* room in cpus */
	struct pf_samples *samples;
	struct pf_tracks *tracks;
	struct pb_buf start_tids;	/* the threads alive at the start (int32_t) */
	int64_t boot_offset;		/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
	uint64_t last_ts;
};

static int write_out(struct f2t_writer *w)
{
	struct pf_priv *p = w->priv;

	if (p->buf.err)
		return p->buf.err;
	f2t_out_write(w->out, p->buf.p, p->buf.len);
	p->buf.len = 0;
	return w->out->err;
}

/*
 * A bundle goes to the output as it is, after the packets before it: its
 * pieces (pf_bundle_pieces()) are not copied into ours.
 */
static int flush_bundle(struct f2t_writer *w, struct pf_bundle *bb)
{
	struct iovec iov[PF_BUNDLE_PIECES];
	int n = pf_bundle_pieces(bb, PF_SEQ_FTRACE, iov);
	int ret;

	if (n <= 0)
		return n;
	ret = write_out(w);
	if (!ret) {
		f2t_out_writev(w->out, iov, n);
		ret = w->out->err;
	}
	pf_bundle_clear(bb);
	return ret;
}

static inline int maybe_write_out(struct f2t_writer *w)
{
	struct pf_priv *p = w->priv;

	return p->buf.len >= OUT_BYTES || p->buf.err ? write_out(w) : 0;
}

/* The clocks at the recorder's start sync point, or at its start in older captures. */
static struct pf_clocks start_clocks(const struct f2t_trace_info *info)
{
	const struct f2t_sync_point *s = &info->sync_start;

	if (s->mono_ns && s->boottime_ns)
		return (struct pf_clocks){ s->boottime_ns, s->mono_ns, s->realtime_ns };
	if (info->start_ns && info->boottime_ns)
		return (struct pf_clocks){ info->boottime_ns, info->start_ns, info->realtime_ns };
	/* Nothing measured: BOOTTIME is taken as MONOTONIC (no suspend, no offset). */
	return (struct pf_clocks){ info->start_ns, info->start_ns, info->realtime_ns };
}

/*
 * One offset for the whole file, so that ftrace events, samples and
 * markers stay where they were against each other.  A machine suspended
 * while recording has two; where the suspend fell is unknown, so the
 * second half is placed by the first half's offset, and the user told.
 */
static void check_suspend(const struct f2t_writer *w, int64_t offset)
{
	const struct f2t_sync_point *e = &w->info->sync_end;
	int64_t end_offset, d;

	if (!e->mono_ns || !e->boottime_ns)
		return;
	end_offset = (int64_t)(e->boottime_ns - e->mono_ns);
	d = end_offset - offset;
	if (d > SUSPEND_NS || d < -SUSPEND_NS)
		f2t_warn("%s: CLOCK_BOOTTIME ran %.3f s ahead of CLOCK_MONOTONIC during the recording (a suspend?); every event is placed by the offset at its start",
			 w->out->path, (double)d / 1e9);
}

static int keep_tid(const struct f2t_task *t, void *ctx)
{
	struct pb_buf *tids = ctx;

	pb_raw(tids, &t->tid, sizeof(t->tid));
	return tids->err;
}

static int pf_begin(struct f2t_writer *w)
{
	struct pf_priv *p = w->priv;
	const struct f2t_trace_info *info = w->info;
	const struct f2t_recording *rec = w->rec;
	struct pf_clocks c = start_clocks(info);

	p->boot_offset = (int64_t)(c.boottime - c.monotonic);
	check_suspend(w, p->boot_offset);
	pf_system_info(&p->buf, info);
	pf_identity(&p->buf, info);
	pf_clock_snapshot(&p->buf, &c);
	pf_seq_defaults(&p->buf, PF_SEQ_TRACKS, PF_CLOCK_MONOTONIC, NULL);
	pf_samples_clock_base(p->samples, info->start_ns);
	if (f2t_tasks_each(w->tasks, keep_tid, &p->start_tids))
		return -ENOMEM;
	if (rec->ncpu_stats)
		pf_ftrace_stats(&p->buf, info->start_ns, true, rec->cpu_stats, rec->ncpu_stats);
	return write_out(w);
}

/*
 * CPU N's bundle, made on its first event.  A bundle's cpu is a uint32 in
 * Perfetto's format: any number the kernel (NR_CPUS is 8192 at most) or a
 * text input (5 digits) gives is held; the table grows to the highest one
 * seen.
 */
static struct pf_cpu *cpu_new(struct f2t_writer *w, struct pf_priv *p, uint32_t n)
{
	struct pf_cpu *c;

	if (n >= PF_CPU_LIMIT) {
		snprintf(w->why, sizeof(w->why), "CPU %u: this writer holds CPUs up to %u", n,
			 PF_CPU_LIMIT - 1);
		errno = ERANGE;
		return NULL;
	}
	if (n >= p->ncpus) {
		size_t old = p->ncpus;

		if (f2t_vec_reserve(&p->cpus, &p->ncpus, (size_t)n + 1, 64))
			return NULL;
		memset(p->cpus + old, 0, (p->ncpus - old) * sizeof(*p->cpus));
	}
	c = calloc(1, sizeof(*c));
	if (!c || pf_bundle_init(&c->bundle, n)) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	c->running = -1;
	p->cpus[n] = c;
	return c;
}

/* CPU N's bundle: inline, as every event asks. */
static inline struct pf_cpu *cpu(struct f2t_writer *w, struct pf_priv *p, uint32_t n)
{
	return n < p->ncpus && p->cpus[n] ? p->cpus[n] : cpu_new(w, p, n);
}

static uint64_t boot(const struct pf_priv *p, uint64_t mono)
{
	return mono + (uint64_t)p->boot_offset;
}

/*
 * A switch in the compact form only when trace_processor would infer its
 * previous task right: the one the CPU's last switch put there.  The
 * first switch on a CPU, and one after a switch the kernel did not record
 * (a scheduling gap), go whole.
 */
static int write_switch(struct pf_priv *p, struct pf_cpu *c, const struct f2t_event *ev)
{
	bool compact = c->running >= 0 && c->running == ev->sw.prev_pid;
	int ret;

	c->running = ev->sw.next_pid;
	if (compact)
		return pf_bundle_switch(&c->bundle, boot(p, ev->ts), ev->sw.prev_state_raw, ev);
	ret = pf_bundle_event(&c->bundle, boot(p, ev->ts), ev);
	return ret < 0 ? ret : 0;
}

/* A compact waking's waker is the CPU's running task: only when that is the event's pid. */
static int write_waking(struct pf_priv *p, struct pf_cpu *c, const struct f2t_event *ev)
{
	int ret;

	if (c->running >= 0 && c->running == ev->pid)
		return pf_bundle_waking(&c->bundle, boot(p, ev->ts), ev);
	ret = pf_bundle_event(&c->bundle, boot(p, ev->ts), ev);
	return ret < 0 ? ret : 0;
}

/* A sched_wakeup whole: in pf_bundle_wake()'s one go, inline, unless it is long. */
static int write_wakeup(struct pf_priv *p, struct pf_cpu *c, const struct f2t_event *ev)
{
	int ret;

	if (pf_bundle_wake(&c->bundle, boot(p, ev->ts), PF_FEV_SCHED_WAKEUP, ev))
		return 0;
	ret = pf_bundle_event(&c->bundle, boot(p, ev->ts), ev);
	return ret < 0 ? ret : 0;
}

/* A print event as it is, where the model says trace_processor reads it as its item. */
static int write_print(struct f2t_writer *w, struct pf_cpu *c, const struct f2t_event *ev)
{
	const struct f2t_mprint *print = f2t_model_print(w->model);

	if (!print->atrace)
		return 0;
	return pf_bundle_print(&c->bundle, boot(w->priv, ev->ts), ev->pid, print->text.s,
			       print->text.len);
}

static int pf_event(struct f2t_writer *w, const struct f2t_event *ev)
{
	struct pf_priv *p = w->priv;
	struct pf_cpu *c;
	int ret;

	p->last_ts = ev->ts;
	switch (ev->kind) {
	case F2T_EV_SAMPLE:		/* from its item */
	case F2T_EV_FUNCTION:		/* its items are TrackEvents */
	case F2T_EV_FUNCGRAPH_ENTRY:
	case F2T_EV_FUNCGRAPH_EXIT:
		return 0;
	default:
		break;
	}
	c = cpu(w, p, ev->cpu);
	if (!c)
		return -errno;
	/*
	 * sched_wakeup repeats what sched_waking said, and trace_processor
	 * draws nothing from it; but where it was recorded (often the woken
	 * task's CPU, with what ran there) is a fact the thread states of
	 * `report FILE.pftrace` need to give the capture's figures.  It costs
	 * a quarter of a ping-pong's file.
	 */
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		ret = write_switch(p, c, ev);
		break;
	case F2T_EV_WAKING:
		ret = write_waking(p, c, ev);
		break;
	case F2T_EV_WAKEUP:
		ret = write_wakeup(p, c, ev);
		break;
	case F2T_EV_PRINT:
		ret = write_print(w, c, ev);
		break;
	case F2T_EV_LOST:
		c->bundle.lost = true;
		ret = 0;
		break;
	default:
		ret = pf_bundle_event(&c->bundle, boot(p, ev->ts), ev);
		ret = ret < 0 ? ret : 0;
		break;
	}
	/* Into the bundle alone: our packets grow only with a bundle written out. */
	if (!ret && pf_bundle_full(&c->bundle))
		ret = flush_bundle(w, &c->bundle);
	return ret;
}

/* Items of events that go to Perfetto whole: trace_processor builds its own. */
static bool raw_kind(enum f2t_event_kind k)
{
	switch (k) {
	case F2T_EV_IRQ_ENTRY:
	case F2T_EV_IRQ_EXIT:
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
	case F2T_EV_OTHER:
	case F2T_EV_LOST:	/* ends irq slices: trace_processor's own */
		return true;
	default:
		return false;
	}
}

/*
 * An off-CPU slice on its thread's track, on the samples' sequence: the
 * callstack it names is interned there.
 */
static int offcpu(struct f2t_writer *w, const struct f2t_item *it)
{
	struct pf_priv *p = w->priv;
	uint64_t track;
	int ret = pf_tracks_slice_track(p->tracks, &p->buf, it, &track);

	if (!ret)
		ret = pf_samples_offcpu(p->samples, &p->buf, it, track);
	return ret ? ret : maybe_write_out(w);
}

static int pf_item(struct f2t_writer *w, const struct f2t_item *it)
{
	struct pf_priv *p = w->priv;
	int ret;

	if (it->ev && raw_kind(it->ev->kind))
		return 0;
	/* The print event goes instead (write_print()). */
	if (it->ev && it->ev->kind == F2T_EV_PRINT && f2t_model_print(w->model)->atrace)
		return 0;
	if (it->ev && it->ev->kind == F2T_EV_OFFCPU && it->kind == F2T_ITEM_COMPLETE)
		return offcpu(w, it);
	switch (it->kind) {
	case F2T_ITEM_SAMPLE:
	case F2T_ITEM_MAPPING:
	case F2T_ITEM_FRAME:
	case F2T_ITEM_CALLSTACK:
	case F2T_ITEM_STACK_NODE:
		ret = pf_samples_item(p->samples, &p->buf, it);
		break;
	default:
		ret = pf_tracks_item(p->tracks, &p->buf, it);
		break;
	}
	return ret ? ret : maybe_write_out(w);
}

static int pf_end(struct f2t_writer *w, const struct f2t_stats *st)
{
	struct pf_priv *p = w->priv;
	const struct f2t_recording *rec = w->rec;
	uint64_t end_ts = w->info->stop_ns > p->last_ts ? w->info->stop_ns : p->last_ts;
	int ret = 0;

	for (uint32_t i = 0; !ret && i < p->ncpus; i++)
		if (p->cpus[i])
			ret = flush_bundle(w, &p->cpus[i]->bundle);
	if (!ret && st->samples_lost)
		ret = pf_samples_lost(p->samples, &p->buf, end_ts, st->samples_lost);
	if (!ret && rec->ncpu_stats)
		pf_ftrace_stats(&p->buf, end_ts, false, rec->cpu_stats, rec->ncpu_stats);
	if (!ret)
		pf_process_tree(&p->buf, w->info->start_ns, w->tasks,
				(const int32_t *)p->start_tids.p, p->start_tids.len / sizeof(int32_t));
	if (!ret)
		ret = pf_tracks_stats(p->tracks, &p->buf, end_ts, st);
	return ret ? ret : write_out(w);
}

static void pf_destroy(struct f2t_writer *w)
{
	struct pf_priv *p = w->priv;

	if (!p)
		return;
	for (uint32_t i = 0; i < p->ncpus; i++) {
		if (p->cpus[i])
			pf_bundle_fini(&p->cpus[i]->bundle);
		free(p->cpus[i]);
	}
	free(p->cpus);
	pf_samples_free(p->samples);
	pf_tracks_free(p->tracks);
	pb_buf_free(&p->buf);
	pb_buf_free(&p->start_tids);
	free(p);
	w->priv = NULL;
}

static const struct f2t_writer_ops pf_ops = {
	.name = "perfetto",
	.begin = pf_begin,
	.item = pf_item,
	.event = pf_event,
	.end = pf_end,
	.destroy = pf_destroy,
};

/**
 * f2t_perfetto_writer_init() - make @w write a Perfetto trace
 * @w: the writer; out, info, tasks and model already set
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_perfetto_writer_init(struct f2t_writer *w)
{
	struct pf_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->samples = pf_samples_new(&w->rec->sampling, true);
	p->tracks = pf_tracks_new();
	if (!p->samples || !p->tracks) {
		pf_destroy(w);
		return -ENOMEM;
	}
	w->ops = &pf_ops;
	return 0;
}
