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

#include "pipeline/convert.h"
#include "source/input.h"
#include "model/tracker.h"
#include "util/log.h"
#include "output/format.h"

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

static void show_progress(const struct f2t_source *src, uint64_t events, double t0,
			  bool final)
{
	uint64_t done, total;
	double dt = now_s() - t0;

	f2t_source_progress(src, &done, &total);
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
	struct f2t_tracker *tracker = NULL;
	struct f2t_input *in;
	struct f2t_stats st = { 0 };
	struct f2t_event ev;
	unsigned int nw = 0;
	double t0 = now_s(), last = t0;
	int ret = 0;

	in = f2t_input_open(capture_path);
	if (!in)
		return -errno;
	st.kernel_overrun = in->rec.kernel_overrun;
	st.kernel_dropped = in->rec.kernel_dropped;
	st.kernel_read = in->rec.kernel_read;
	tracker = f2t_tracker_new(in->rec.tasks, in->rec.tasks_end);
	if (!tracker) {
		ret = -ENOMEM;
		f2t_err("out of memory");
		goto out;
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
		w->info = &in->rec.info;
		w->tasks = in->rec.tasks;
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

	while ((ret = f2t_source_next(in->events, &ev)) > 0) {
		ret = f2t_tracker_event(tracker, &ev, &st);
		for (unsigned int i = 0; !ret && i < nw; i++)
			ret = writers[i].ops->event(&writers[i], &ev);
		if (ret) {
			f2t_err("%s: %s", opts->outputs[0].path, strerror(-ret));
			goto out;
		}
		if (opts->progress && !(st.total_events & 0xffff) && now_s() - last > 0.5) {
			last = now_s();
			show_progress(in->events, st.total_events, t0, false);
		}
	}
	if (ret < 0)
		goto out;
	if (opts->progress && last != t0)
		show_progress(in->events, st.total_events, t0, true);
	f2t_source_counts(in->events, &st);
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
	f2t_tracker_free(tracker);
	f2t_input_close(in);
	return ret;
}
