// SPDX-License-Identifier: MIT
/*
 * The conversion pipeline: capture -> decoder -> tracker -> every writer.
 * One pass over the data, whatever the number of outputs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "pipeline/convert.h"
#include "source/capsrc.h"
#include "model/tracker.h"
#include "source/perfsrc.h"
#include "util/log.h"
#include "output/format.h"

struct info_strings {
	char *host, *kernel, *cmdline, *clock, *recorder;
	char *sync_start_id, *sync_end_id;
};

static uint64_t meta_u64(const struct f2t_capr *cap, const char *key)
{
	char *v = f2t_capr_meta(cap, key);
	uint64_t n = v ? strtoull(v, NULL, 10) : 0;

	free(v);
	return n;
}

static void read_info(const struct f2t_capr *cap, struct f2t_trace_info *info,
		      struct info_strings *s)
{
	s->host = f2t_capr_meta(cap, "host");
	s->kernel = f2t_capr_meta(cap, "kernel");
	s->cmdline = f2t_capr_meta(cap, "cmdline");
	s->clock = f2t_capr_meta(cap, "clock");
	s->recorder = f2t_capr_meta(cap, "recorder");
	info->host = s->host ? s->host : "";
	info->kernel = s->kernel ? s->kernel : "";
	info->cmdline = s->cmdline ? s->cmdline : "";
	info->clock = s->clock ? s->clock : "mono";
	info->recorder = s->recorder ? s->recorder : "";
	info->start_ns = meta_u64(cap, "start_ns");
	info->stop_ns = meta_u64(cap, "stop_ns");
	info->realtime_ns = meta_u64(cap, "start_realtime_ns");
	info->boottime_ns = meta_u64(cap, "start_boottime_ns");
	info->ncpus = (uint32_t)meta_u64(cap, "ncpus");
	/* The recorder's clock sync markers (record/syncmark.h); none in older captures. */
	s->sync_start_id = f2t_capr_meta(cap, "sync_start_id");
	s->sync_end_id = f2t_capr_meta(cap, "sync_end_id");
	info->sync_start = (struct f2t_sync_point){
		.id = s->sync_start_id,
		.mono_ns = meta_u64(cap, "sync_start_mono_ns"),
		.realtime_ns = meta_u64(cap, "sync_start_realtime_ns"),
		.boottime_ns = meta_u64(cap, "sync_start_boottime_ns"),
	};
	info->sync_end = (struct f2t_sync_point){
		.id = s->sync_end_id,
		.mono_ns = meta_u64(cap, "sync_end_mono_ns"),
		.realtime_ns = meta_u64(cap, "sync_end_realtime_ns"),
		.boottime_ns = meta_u64(cap, "sync_end_boottime_ns"),
	};
}

static void free_info(struct info_strings *s)
{
	free(s->host);
	free(s->kernel);
	free(s->cmdline);
	free(s->clock);
	free(s->recorder);
	free(s->sync_start_id);
	free(s->sync_end_id);
}

static uint64_t stat_value(const char *text, size_t len, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));

		if ((size_t)(text + len - p) > klen && !memcmp(p, key, klen)) {
			/* The record is not NUL-terminated: parse a bounded copy. */
			char num[24] = "";
			size_t n = (size_t)(text + len - p) - klen;

			memcpy(num, p + klen, n < sizeof(num) - 1 ? n : sizeof(num) - 1);
			return strtoull(num, NULL, 10);
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The kernel's own count of what its ring buffer overwrote or refused. */
static void read_cpu_stats(const struct f2t_capr *cap, struct f2t_stats *st)
{
	for (size_t i = 0; i < cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &cap->recs[i];

		if (r->type != F2T_CAP_CPU_STATS)
			continue;
		st->kernel_overrun += stat_value(r->data, r->len, "overrun: ");
		st->kernel_dropped += stat_value(r->data, r->len, "dropped events: ");
		st->kernel_read += stat_value(r->data, r->len, "read events: ");
	}
}

static int load_tasks(const struct f2t_capr *cap, uint32_t which, struct f2t_tasks *t)
{
	const struct f2t_cap_rec *r = f2t_capr_find(cap, F2T_CAP_TASKS, which);
	int line = 0, n;

	if (!r)
		return 0;
	n = f2t_tasks_load_snapshot(t, r->data, r->len, &line);
	if (n == -EINVAL)
		f2t_err("%s: offset %llu: task snapshot line %d is malformed",
			cap->path, (unsigned long long)r->offset, line);
	return n < 0 ? n : 0;
}

int f2t_convert_add_output(struct f2t_convert_opts *opts, const char *path,
			   const char *format_name)
{
	enum f2t_format fmt;
	char list[256];

	f2t_format_list(list, sizeof(list));
	if (opts->noutputs >= F2T_MAX_OUTPUTS) {
		f2t_err("at most %d outputs", F2T_MAX_OUTPUTS);
		return -EINVAL;
	}
	if (format_name) {
		fmt = f2t_format_from_name(format_name);
		if (fmt == F2T_FMT_NONE) {
			f2t_err("unknown format '%s'; known: %s", format_name, list);
			return -EINVAL;
		}
	} else {
		fmt = f2t_format_from_path(path);
		if (fmt == F2T_FMT_NONE) {
			f2t_err("%s: cannot tell the format from the name; use --format (known: %s)",
				path, list);
			return -EINVAL;
		}
	}
	opts->outputs[opts->noutputs].path = path;
	opts->outputs[opts->noutputs].format = fmt;
	opts->noutputs++;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void show_progress(const struct f2t_capsrc *src, uint64_t events, double t0,
			  bool final)
{
	uint64_t done, total;
	double dt = now_s() - t0;

	f2t_capsrc_progress(src, &done, &total);
	fprintf(stderr, "\rconverting: %llu events, %.1f of %.1f MB, %.0f events/s%s",
		(unsigned long long)events, done / 1e6, total / 1e6,
		dt > 0 ? events / dt : 0.0, final ? "\n" : "");
}

static void print_summary(const struct f2t_convert_opts *opts, const struct f2t_stats *st,
			  double secs)
{
	fprintf(stderr, "ftrace2trace: %llu events from %u CPUs in %.2f s: %llu sched_switch, %llu sched_waking, %llu other\n",
		(unsigned long long)st->total_events, st->ncpus, secs,
		(unsigned long long)st->events[F2T_EV_SWITCH],
		(unsigned long long)st->events[F2T_EV_WAKING],
		(unsigned long long)(st->total_events - st->events[F2T_EV_SWITCH] -
				     st->events[F2T_EV_WAKING] - st->events[F2T_EV_SAMPLE]));
	fprintf(stderr, "ftrace2trace: lost events: %llu (ring buffer overrun %llu, dropped %llu, pages flagged %llu)\n",
		(unsigned long long)st->lost_events, (unsigned long long)st->kernel_overrun,
		(unsigned long long)st->kernel_dropped, (unsigned long long)st->lost_pages);
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
		fprintf(stderr, "ftrace2trace: %llu CPU samples, %llu frames (%.1f%% named), %llu sample records lost, throttled %llu times\n",
			(unsigned long long)st->events[F2T_EV_SAMPLE], (unsigned long long)st->frames,
			st->frames ? 100.0 * (double)st->frames_named / (double)st->frames : 0.0,
			(unsigned long long)st->samples_lost, (unsigned long long)st->sample_throttles);
	if (st->unwind_samples)
		fprintf(stderr, "ftrace2trace: %llu user stacks unwound with DWARF CFI, %llu of them (%.1f%%) to their sampled function only\n",
			(unsigned long long)st->unwind_samples, (unsigned long long)st->unwind_leaf_only,
			100.0 * (double)st->unwind_leaf_only / (double)st->unwind_samples);
	if (st->perf_bad_records)
		f2t_warn("skipped %llu malformed perf records", (unsigned long long)st->perf_bad_records);
	if (st->unknown_events || st->bad_records)
		fprintf(stderr, "ftrace2trace: skipped %llu records of unknown type and %llu malformed records\n",
			(unsigned long long)st->unknown_events, (unsigned long long)st->bad_records);
	for (unsigned int i = 0; i < opts->noutputs; i++) {
		const struct f2t_output *o = &opts->outputs[i];

		fprintf(stderr, "ftrace2trace: wrote %s%s\n", o->path,
			o->format == F2T_FMT_FXT ? " (open it at https://ui.perfetto.dev)" :
			o->format == F2T_FMT_JSON ? " (open it at https://ui.perfetto.dev or chrome://tracing)" :
			"");
	}
}

int f2t_convert(const char *capture_path, const struct f2t_convert_opts *opts)
{
	struct f2t_writer writers[F2T_MAX_OUTPUTS] = { 0 };
	struct f2t_tasks *tasks = NULL, *hints = NULL;
	struct f2t_trace_info info = { 0 };
	struct info_strings istr = { 0 };
	struct f2t_tracker *tracker = NULL;
	struct f2t_capsrc *src = NULL;
	struct f2t_perfsrc *psrc = NULL;
	struct f2t_event pev;		/* the next sample, when have_pev */
	bool have_pev = false;
	int rret;		/* the ring-buffer side: 1 ev pending, 0 over, < 0 error */
	struct f2t_capr *cap = NULL;
	struct f2t_stats st = { 0 };
	struct f2t_event ev;
	unsigned int nw = 0;
	char err[512] = "";
	double t0 = now_s(), last = t0;
	int ret = 0;

	cap = f2t_capr_open(capture_path, err, sizeof(err));
	if (!cap) {
		f2t_err("%s", err);
		return -EINVAL;
	}
	if (!cap->complete)
		f2t_warn("%s: capture has no end record (recorder killed?); converting what is there",
			 capture_path);
	tasks = f2t_tasks_new();
	hints = f2t_tasks_new();
	if (!tasks || !hints) {
		ret = -ENOMEM;
		goto out;
	}
	ret = load_tasks(cap, 0, tasks);
	if (!ret)
		ret = load_tasks(cap, 1, hints);
	if (ret)
		goto out;
	read_info(cap, &info, &istr);
	read_cpu_stats(cap, &st);
	tracker = f2t_tracker_new(tasks, hints);
	src = f2t_capsrc_open(cap, tasks, err, sizeof(err));
	if (!tracker || !src) {
		ret = -errno;
		if (err[0])
			f2t_err("%s", err);
		goto out;
	}
	psrc = f2t_perfsrc_open(cap, NULL, err, sizeof(err));
	if (!psrc && errno != ENOENT) {
		ret = -errno;
		if (err[0])
			f2t_err("%s", err);
		goto out;
	}
	if (psrc) {
		ret = f2t_perfsrc_next(psrc, &pev, err, sizeof(err));
		if (ret < 0) {
			f2t_err("%s", err);
			goto out;
		}
		have_pev = ret > 0;
	}

	for (nw = 0; nw < opts->noutputs; nw++) {
		const struct f2t_output *o = &opts->outputs[nw];
		struct f2t_writer *w = &writers[nw];

		w->out = f2t_out_open(o->path);
		if (!w->out) {
			ret = -errno;
			f2t_err("%s: %s", o->path, strerror(errno));
			goto out;
		}
		w->info = &info;
		w->tasks = tasks;
		w->slot = nw;
		ret = f2t_format_desc(o->format)->init(w);
		if (!ret)
			ret = w->ops->begin(w);
		if (ret) {
			f2t_err("%s: cannot start the %s writer: %s", o->path,
				f2t_format_desc(o->format)->name, strerror(-ret));
			nw++;
			goto out;
		}
	}

	/*
	 * Two sources, one time order: ring-buffer events and CPU samples.
	 * Each source's pending event stays valid until that source is asked
	 * for its next one, so the earlier of the two is handed out first.
	 */
	rret = f2t_capsrc_next(src, &ev, err, sizeof(err));
	while (rret > 0 || (rret == 0 && have_pev)) {
		bool sample = have_pev && (rret == 0 || pev.ts < ev.ts);
		const struct f2t_event *e = sample ? &pev : &ev;

		ret = f2t_tracker_event(tracker, e, &st);
		for (unsigned int i = 0; !ret && i < nw; i++)
			ret = writers[i].ops->event(&writers[i], e);
		if (ret) {
			f2t_err("%s: %s", opts->outputs[0].path, strerror(-ret));
			goto out;
		}
		if (sample) {
			ret = f2t_perfsrc_next(psrc, &pev, err, sizeof(err));
			if (ret < 0) {
				f2t_err("%s", err);
				goto out;
			}
			have_pev = ret > 0;
		} else {
			rret = f2t_capsrc_next(src, &ev, err, sizeof(err));
		}
		if (opts->progress && !(st.total_events & 0xffff) && now_s() - last > 0.5) {
			last = now_s();
			show_progress(src, st.total_events, t0, false);
		}
	}
	ret = rret < 0 ? rret : 0;
	if (ret < 0) {
		f2t_err("%s", err);
		goto out;
	}
	if (opts->progress && last != t0)
		show_progress(src, st.total_events, t0, true);
	f2t_capsrc_stats(src, &st);
	if (psrc)
		f2t_perfsrc_stats(psrc, &st);
	for (unsigned int i = 0; i < nw && !ret; i++) {
		ret = writers[i].ops->end(&writers[i], &st);
		if (ret)
			f2t_err("%s: %s", opts->outputs[i].path, strerror(-ret));
	}
out:
	for (unsigned int i = 0; i < nw; i++) {
		int cret;

		if (writers[i].ops && writers[i].ops->destroy)
			writers[i].ops->destroy(&writers[i]);
		cret = f2t_out_close(writers[i].out);
		if (cret && !ret) {
			f2t_err("%s: %s", opts->outputs[i].path, strerror(-cret));
			ret = cret;
		}
	}
	if (ret) {
		/* No partial output left behind to be mistaken for a whole trace. */
		for (unsigned int i = 0; i < nw; i++)
			if (strcmp(opts->outputs[i].path, "-"))
				unlink(opts->outputs[i].path);
	} else if (opts->summary) {
		print_summary(opts, &st, now_s() - t0);
	}
	f2t_capsrc_close(src);
	f2t_perfsrc_close(psrc);
	f2t_tracker_free(tracker);
	f2t_tasks_free(tasks);
	f2t_tasks_free(hints);
	free_info(&istr);
	f2t_capr_close(cap);
	return ret;
}
