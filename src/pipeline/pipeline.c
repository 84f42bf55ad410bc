// SPDX-License-Identifier: MIT
/*
 * The pipeline: tracker, model, writers; one pass over the events whatever
 * the number of outputs.  See pipeline.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/tracker.h"
#include "output/format.h"
#include "pipeline/pipeline.h"
#include "util/inmap.h"
#include "util/log.h"
#include "util/openreg.h"

struct output {
	struct f2t_writer w;
	enum f2t_format format;
	char *path;		/* NULL: not ours to remove (stdout, a caller's out) */
	int err;		/* its writer's error: left out from then on, removed */
};

struct f2t_pipeline {
	struct f2t_recording *rec;
	struct f2t_tracker *tracker;
	struct f2t_model *model;
	struct output out[F2T_MAX_OUTPUTS];
	unsigned int nout;
	unsigned int nlive;		/* outputs with no error */
	int status[F2T_MAX_OUTPUTS];	/* each output's fate, once closed */
	struct f2t_tap taps[F2T_MAX_TAPS];
	unsigned int ntaps;
	bool begun, failed, finished;
	bool cputime;			/* an output reads CPU time: the model sees switches */
	struct f2t_stats st;
	/* Samples whose user stack is two frames at most: the frame-pointer walk cut short. */
	uint64_t short_stacks;
};

struct f2t_pipeline *f2t_pipeline_new(struct f2t_recording *rec)
{
	struct f2t_pipeline *p = calloc(1, sizeof(*p));
	char sync_id[F2T_SYNC_ID_MAX];

	if (!p)
		goto nomem;
	p->rec = rec;
	f2t_recording_sync_id(&rec->info, sync_id);
	p->tracker = f2t_tracker_new(rec->tasks, rec->tasks_end);
	/* The id the outputs use for their own clock sync: no marker may repeat it. */
	p->model = f2t_model_new(rec, sync_id);
	if (!p->tracker || !p->model)
		goto nomem;
	p->st.kernel_overrun = rec->kernel_overrun;
	p->st.kernel_dropped = rec->kernel_dropped;
	p->st.kernel_read = rec->kernel_read;
	return p;
nomem:
	f2t_err("out of memory");
	f2t_pipeline_free(p);
	errno = ENOMEM;
	return NULL;
}

static int add(struct f2t_pipeline *p, struct f2t_out *out, enum f2t_format fmt,
	       const char *path)
{
	struct output *o = &p->out[p->nout];
	const struct f2t_format_desc *d = f2t_format_desc(fmt);
	int ret;

	if (p->nout == F2T_MAX_OUTPUTS || !d) {
		f2t_err("%s: %s", out->path, p->nout == F2T_MAX_OUTPUTS ?
			"too many outputs" : "unknown format");
		f2t_out_abort(out);
		return -EINVAL;
	}
	*o = (struct output){
		.w = { .out = out, .info = &p->rec->info, .rec = p->rec, .tasks = p->rec->tasks,
		       .model = p->model },
		.format = fmt,
	};
	p->nout++;
	p->nlive++;
	if (path && strcmp(path, "-")) {
		o->path = strdup(path);
		if (!o->path) {
			f2t_err("out of memory");
			return -ENOMEM;
		}
	}
	p->cputime |= d->cputime;
	ret = d->cputime ? f2t_model_count_cputime(p->model) : 0;
	if (!ret)
		ret = d->init(&o->w);
	if (ret)
		f2t_err("%s: cannot start the %s writer: %s", out->path, d->name, strerror(-ret));
	return ret;
}

int f2t_pipeline_add_file(struct f2t_pipeline *p, const char *path, enum f2t_format fmt)
{
	const struct f2t_format_desc *d = f2t_format_desc(fmt);
	struct f2t_out *out = d && d->gzip ? f2t_out_open_gzip(path) : f2t_out_open(path);

	if (!out) {
		f2t_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	return add(p, out, fmt, path);
}

int f2t_pipeline_add_out(struct f2t_pipeline *p, struct f2t_out *out, enum f2t_format fmt)
{
	return add(p, out, fmt, NULL);
}

int f2t_pipeline_add_tap(struct f2t_pipeline *p, const struct f2t_tap *tap)
{
	if (p->ntaps == F2T_MAX_TAPS) {
		f2t_err("too many analyses in one pass");
		return -EINVAL;
	}
	p->taps[p->ntaps++] = *tap;
	return 0;
}

/*
 * A writer's error, named after its output.  That output is left out from
 * now on and removed at the end; the run goes on for the others (and the
 * taps), and fails only when none is left.  Memory and descriptors are
 * everyone's: out of them, the run ends.
 */
static int failed(struct f2t_pipeline *p, struct output *o, int err)
{
	const char *why = o->w.why[0] ? o->w.why : strerror(-err);

	o->err = err;
	if (--p->nlive + p->ntaps && !f2t_resource_error(err)) {
		f2t_err("%s: %s; not written, the other outputs go on", o->w.out->path, why);
		return 0;
	}
	f2t_err("%s: %s", o->w.out->path, why);
	p->failed = true;
	return err;
}

static int begin(struct f2t_pipeline *p)
{
	p->begun = true;
	for (unsigned int i = 0; i < p->nout; i++) {
		struct output *o = &p->out[i];
		int ret = o->w.ops->begin(&o->w);

		if (ret && (ret = failed(p, o, ret)))
			return ret;
	}
	return 0;
}

/* Hands one item to every writer. */
static int to_writers(void *ctx, const struct f2t_item *it)
{
	struct f2t_pipeline *p = ctx;

	for (unsigned int i = 0; i < p->nout; i++) {
		struct output *o = &p->out[i];
		int ret = o->err || !o->w.ops->item ? 0 : o->w.ops->item(&o->w, it);

		if (ret && (ret = failed(p, o, ret)))
			return ret;
	}
	return 0;
}

/* A sample's frames in user code. */
static uint32_t user_frames(const struct f2t_event *ev)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < ev->sample.nframes; i++)
		n += !ev->sample.frames[i].kernel;
	return n;
}

/* Out of memory in the tracker or the model: said once. */
static int nomem(struct f2t_pipeline *p, int ret)
{
	if (!p->failed) {
		f2t_err("out of memory");
		p->failed = true;
	}
	return ret;
}

/*
 * An event after the writers have begun: the tracker, the model, the taps,
 * the writers.  Inline in the run's loop, as the calls of an event cost as
 * much as its work; what is rare (a tap, a failure) is called.
 */
static inline int deliver(struct f2t_pipeline *p, const struct f2t_event *ev)
{
	int ret = f2t_tracker_event(p->tracker, ev, &p->st);

	/* Items are for writers: a pass with taps alone (report) needs none. */
	if (!ret && p->nout && (p->cputime || !f2t_model_sched_only(ev->kind)))
		ret = f2t_model_event(p->model, ev, to_writers, p);
	if (ret)
		return nomem(p, ret);
	for (unsigned int i = 0; i < p->ntaps; i++) {
		ret = p->taps[i].event(p->taps[i].ctx, ev);
		if (ret) {
			p->failed = true;	/* the tap said why */
			return ret;
		}
	}
	for (unsigned int i = 0; i < p->nout; i++) {
		struct output *o = &p->out[i];

		ret = o->err ? 0 : o->w.ops->event(&o->w, ev);
		if (ret && (ret = failed(p, o, ret)))
			return ret;
	}
	return 0;
}

/* The first event: the writers begin, with what the source knew of its task. */
static int first_event(struct f2t_pipeline *p, const struct f2t_event *ev)
{
	int ret;

	/* A name the source knew goes to the task before the writers begin (tracker.h). */
	if (ev->pid_comm && (ret = f2t_tracker_learn(p->tracker, ev)))
		return nomem(p, ret);
	return begin(p);
}

/* A sample, counted, and named after its thread when it came without one. */
static int sample_event(struct f2t_pipeline *p, const struct f2t_event *ev)
{
	struct f2t_event named;

	if (ev->pid < 0) {
		/* Taken in a thread's exit, its tid gone (-1): no thread's, not even the idle task's. */
		named = *ev;
		named.pid = f2t_tracker_sample_tid(p->tracker, ev);
		if (!named.pid) {
			p->st.samples_no_thread++;
			return 0;
		}
		ev = &named;
	}
	p->short_stacks += user_frames(ev) <= 2;
	return deliver(p, ev);
}

static inline int pipeline_event(struct f2t_pipeline *p, const struct f2t_event *ev)
{
	int ret;

	if (!p->begun && (ret = first_event(p, ev)))
		return ret;
	if (ev->kind == F2T_EV_SAMPLE)
		return sample_event(p, ev);
	return deliver(p, ev);
}

int f2t_pipeline_event(struct f2t_pipeline *p, const struct f2t_event *ev)
{
	return pipeline_event(p, ev);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void show_progress(const struct f2t_source *src, uint64_t events, double t0, bool final)
{
	uint64_t done, total;
	double dt = now_s() - t0;

	f2t_source_progress(src, &done, &total);
	fprintf(stderr, "\rconverting: %llu events, %.1f of %.1f MB, %.0f events/s%s",
		(unsigned long long)events, done / 1e6, total / 1e6,
		dt > 0 ? events / dt : 0.0, final ? "\n" : "");
}

int f2t_pipeline_run(struct f2t_pipeline *p, struct f2t_source *src, bool progress)
{
	double t0 = now_s(), last = t0;
	struct f2t_source *from = src;
	struct f2t_event ev = { 0 };
	bool first = true;
	int ret;

	while ((ret = f2t_source_next(from, &ev)) > 0) {
		/* An input cut short reads as zeros from then on: not one such event goes on. */
		ret = f2t_inmap_check();
		if (ret)
			break;
		if (first) {	/* a lone source is read directly from now on */
			from = f2t_source_direct(src);
			first = false;
		}
		ret = pipeline_event(p, &ev);
		if (ret)
			return ret;
		if (progress && !(p->st.total_events & 0xffff) && now_s() - last > 0.5) {
			last = now_s();
			show_progress(src, p->st.total_events, t0, false);
		}
	}
	if (!ret)
		ret = f2t_inmap_check();
	if (ret < 0) {
		p->failed = true;	/* the source said why */
		return ret;
	}
	if (progress && last != t0)
		show_progress(src, p->st.total_events, t0, true);
	return 0;
}

/* Closes every output; their files take their names only if the run went well. */
static int close_outputs(struct f2t_pipeline *p)
{
	int ret = 0;

	for (unsigned int i = 0; i < p->nout; i++) {
		struct output *o = &p->out[i];
		int cret;

		if (o->w.ops && o->w.ops->destroy)
			o->w.ops->destroy(&o->w);
		o->w.ops = NULL;
		/* No partial output left behind to be mistaken for a whole trace. */
		if (p->failed || o->err) {
			f2t_out_abort(o->w.out);
			p->status[i] = o->err ? o->err : -ECANCELED;
			continue;
		}
		cret = f2t_out_close(o->w.out);
		p->status[i] = cret;
		if (cret) {
			f2t_err("%s: %s", o->path ? o->path : "standard output", strerror(-cret));
			ret = cret;
		}
	}
	for (unsigned int i = 0; i < p->nout; i++)
		free(p->out[i].path);
	p->nout = 0;
	return ret;
}

int f2t_pipeline_finish(struct f2t_pipeline *p, const struct f2t_source *src)
{
	int ret = 0;

	if (!p->begun && !p->failed)
		ret = begin(p);
	if (src)
		f2t_source_counts(src, &p->st);
	f2t_stats_settle_lost(&p->st);
	f2t_model_counts(p->model, &p->st);
	f2t_model_report(p->model);
	for (unsigned int i = 0; !ret && !p->failed && i < p->ntaps; i++) {
		ret = p->taps[i].end ? p->taps[i].end(p->taps[i].ctx, &p->st) : 0;
		if (ret)
			p->failed = true;
	}
	for (unsigned int i = 0; !ret && !p->failed && i < p->nout; i++) {
		struct output *o = &p->out[i];

		if (!o->err && (ret = o->w.ops->end(&o->w, &p->st)))
			ret = failed(p, o, ret);
	}
	p->finished = true;
	/* An output that failed alone fails the run too, once the others are whole. */
	if ((p->failed || p->nlive < p->nout) && !ret)
		ret = -EIO;
	return close_outputs(p) && !ret ? -EIO : ret;
}

int f2t_pipeline_output_status(const struct f2t_pipeline *p, unsigned int i)
{
	return i < F2T_MAX_OUTPUTS ? p->status[i] : -EINVAL;
}

const struct f2t_stats *f2t_pipeline_stats(const struct f2t_pipeline *p)
{
	return &p->st;
}

void f2t_pipeline_free(struct f2t_pipeline *p)
{
	if (!p)
		return;
	if (!p->finished)
		p->failed = true;
	close_outputs(p);
	f2t_model_free(p->model);
	f2t_tracker_free(p->tracker);
	free(p);
}

/*
 * One loss count, and where it comes from: the marks in the trace (each at
 * its place) and what only the kernel's count at stop knows of; the two
 * add up to it (f2t_stats_settle_lost()).
 */
static void say_lost(const struct f2t_stats *st)
{
	uint64_t kernel = st->kernel_overrun + st->kernel_dropped;

	fprintf(stderr, "ftrace2trace: lost events: %llu (%llu marked in the trace where they were lost, in %llu places",
		(unsigned long long)st->lost_events, (unsigned long long)st->lost_marked,
		(unsigned long long)st->lost_pages);
	if (kernel >= st->lost_marked)
		fprintf(stderr, "; %llu more the kernel counted at stop: ring buffer overrun %llu, dropped %llu",
			(unsigned long long)(st->lost_events - st->lost_marked),
			(unsigned long long)st->kernel_overrun, (unsigned long long)st->kernel_dropped);
	else if (kernel)
		fprintf(stderr, "; the kernel counted fewer at stop: ring buffer overrun %llu, dropped %llu",
			(unsigned long long)st->kernel_overrun, (unsigned long long)st->kernel_dropped);
	fprintf(stderr, ")\n");
}

/*
 * Most samples cut to two user frames or fewer: code built without frame
 * pointers (-O2 omits them, and so do most distributions' libraries), which
 * the kernel's walk cannot follow.  DWARF unwinding (its samples counted in
 * unwind_samples) walks what the binaries' CFI describes instead.
 */
static void say_short_stacks(const struct f2t_pipeline *p)
{
	uint64_t n = p->st.events[F2T_EV_SAMPLE];

	if (!n || p->st.unwind_samples || p->short_stacks * 2 <= n)
		return;
	fprintf(stderr, "ftrace2trace: %llu of %llu CPU samples (%.0f%%) have at most two user frames: the frame-pointer walk stops at code built without frame pointers; record with --call-graph dwarf (or build with -fno-omit-frame-pointer) for whole stacks\n",
		(unsigned long long)p->short_stacks, (unsigned long long)n,
		100.0 * (double)p->short_stacks / (double)n);
}

void f2t_pipeline_summary(const struct f2t_pipeline *p, double secs)
{
	const struct f2t_stats *st = &p->st;

	fprintf(stderr, "ftrace2trace: %llu events from %u CPUs in %.2f s: %llu sched_switch, %llu sched_waking, %llu other\n",
		(unsigned long long)st->total_events, st->ncpus, secs,
		(unsigned long long)st->events[F2T_EV_SWITCH],
		(unsigned long long)st->events[F2T_EV_WAKING],
		(unsigned long long)(st->total_events - st->events[F2T_EV_SWITCH] -
				     st->events[F2T_EV_WAKING] - st->events[F2T_EV_SAMPLE] -
				     st->events[F2T_EV_OFFCPU]));
	say_lost(st);
	if (st->kernel_read && st->kernel_read != st->records)
		f2t_warn("decoded %llu ring-buffer records but the kernel handed out %llu",
			 (unsigned long long)st->records, (unsigned long long)st->kernel_read);
	else if (st->kernel_read)
		fprintf(stderr, "ftrace2trace: decoded %llu ring-buffer records, as many as the kernel handed out\n",
			(unsigned long long)st->records);
	if (st->sched_gaps)
		fprintf(stderr, "ftrace2trace: %llu scheduling gaps: a task ran on a CPU with no sched_switch to it (the kernel did not record that switch; nothing was invented)\n",
			(unsigned long long)st->sched_gaps);
	if (st->events[F2T_EV_SAMPLE] || st->samples_lost || st->perf_records)
		fprintf(stderr, "ftrace2trace: %llu CPU samples, %llu frames (%.2f a sample, %.1f%% named), %llu sample records lost, throttled %llu times\n",
			(unsigned long long)st->events[F2T_EV_SAMPLE], (unsigned long long)st->frames,
			st->events[F2T_EV_SAMPLE] ?
				(double)st->frames / (double)st->events[F2T_EV_SAMPLE] : 0.0,
			st->frames ? 100.0 * (double)st->frames_named / (double)st->frames : 0.0,
			(unsigned long long)st->samples_lost, (unsigned long long)st->sample_throttles);
	say_short_stacks(p);
	if (st->samples_out_of_scope)
		fprintf(stderr, "ftrace2trace: %llu CPU samples of processes outside the command or -p left out (--sample-all keeps them)\n",
			(unsigned long long)st->samples_out_of_scope);
	if (st->events[F2T_EV_OFFCPU] || st->offcpu_dropped)
		fprintf(stderr, "ftrace2trace: %llu off-CPU episodes, %llu lost in the kernel, %llu stacks lost (stack map collisions or full)\n",
			(unsigned long long)st->events[F2T_EV_OFFCPU],
			(unsigned long long)st->offcpu_dropped,
			(unsigned long long)st->offcpu_stacks_lost);
	if (st->offcpu_unwound)
		fprintf(stderr, "ftrace2trace: %llu off-CPU user stacks unwound from their copy with DWARF CFI, %llu of them (%.1f%%) to the frame-pointer walk only\n",
			(unsigned long long)st->offcpu_unwound,
			(unsigned long long)st->offcpu_unwound_leaf_only,
			100.0 * (double)st->offcpu_unwound_leaf_only / (double)st->offcpu_unwound);
	if (st->offcpu_stacks_missing)
		f2t_warn("%llu off-CPU stacks are missing from the capture",
			 (unsigned long long)st->offcpu_stacks_missing);
	if (st->unwind_samples)
		fprintf(stderr, "ftrace2trace: %llu user stacks unwound with DWARF CFI, %llu of them (%.1f%%) to their sampled function only\n",
			(unsigned long long)st->unwind_samples, (unsigned long long)st->unwind_leaf_only,
			100.0 * (double)st->unwind_leaf_only / (double)st->unwind_samples);
	if (st->perf_bad_records)
		f2t_warn("skipped %llu malformed perf records", (unsigned long long)st->perf_bad_records);
	if (f2t_open_reg_refused())
		fprintf(stderr, "ftrace2trace: %zu files named by the traced processes skipped: not "
			"regular files (a FIFO, a device, a symlink put in a mapped file's place)\n",
			f2t_open_reg_refused());
	if (st->unknown_events || st->bad_records)
		fprintf(stderr, "ftrace2trace: skipped %llu records of unknown type and %llu malformed records\n",
			(unsigned long long)st->unknown_events, (unsigned long long)st->bad_records);
}
