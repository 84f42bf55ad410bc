// SPDX-License-Identifier: MIT
/* Convert: open the input, run the pipeline into every output, say what was written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/format.h"
#include "pipeline/convert.h"
#include "source/input.h"
#include "util/log.h"
#include "util/samefile.h"

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

static void say_written(const struct f2t_convert_opts *opts, const struct f2t_pipeline *p)
{
	for (unsigned int i = 0; i < opts->noutputs; i++) {
		const struct f2t_output *o = &opts->outputs[i];

		if (f2t_pipeline_output_status(p, i))
			continue;

		if (o->format == F2T_FMT_PERFETTO || o->format == F2T_FMT_FXT ||
		    o->format == F2T_FMT_JSON || o->format == F2T_FMT_JSON_GZ)
			fprintf(stderr, "ftrace2trace: wrote %s (`ftrace2trace open %s` shows it in "
				"https://ui.perfetto.dev%s)\n", o->path, o->path,
				o->format == F2T_FMT_JSON || o->format == F2T_FMT_JSON_GZ ?
				"; chrome://tracing opens it too" : "");
		else
			fprintf(stderr, "ftrace2trace: wrote %s\n", o->path);
	}
}

static bool written_any(const struct f2t_convert_opts *opts, const struct f2t_pipeline *p)
{
	for (unsigned int i = 0; i < opts->noutputs; i++)
		if (!f2t_pipeline_output_status(p, i))
			return true;
	return false;
}

int f2t_convert_input(struct f2t_input *in, const struct f2t_convert_opts *opts,
		      const struct f2t_tap *tap)
{
	struct f2t_pipeline *p;
	double t0 = now_s();
	int ret = 0;

	p = f2t_pipeline_new(&in->rec);
	if (!p)
		return -errno;
	for (unsigned int i = 0; !ret && i < opts->noutputs; i++)
		ret = f2t_pipeline_add_file(p, opts->outputs[i].path, opts->outputs[i].format);
	if (!ret && tap)
		ret = f2t_pipeline_add_tap(p, tap);
	if (!ret)
		ret = f2t_pipeline_run(p, in->events, opts->progress);
	if (!ret) {
		ret = f2t_pipeline_finish(p, in->events);
		/* An output that failed alone leaves the others written: they are told. */
		if (opts->summary && (!ret || written_any(opts, p))) {
			f2t_pipeline_summary(p, now_s() - t0);
			say_written(opts, p);
		}
	}
	f2t_pipeline_free(p);
	return ret;
}

int f2t_convert(const char *path, const struct f2t_convert_opts *opts)
{
	struct f2t_input *in;
	int ret;

	for (unsigned int i = 0; i < opts->noutputs; i++)
		if ((ret = f2t_refuse_own_input(path, opts->outputs[i].path)))
			return ret;
	in = f2t_input_open(path);
	if (!in)
		return -errno;
	ret = f2t_convert_input(in, opts, NULL);
	f2t_input_close(in);
	return ret;
}
