// SPDX-License-Identifier: MIT
/*
 * A report on an input file: open it, one pass (with any conversion) with
 * the report as a tap, write.  The scheduling report and the off-CPU one.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "report/offcpu.h"
#include "report/report-local.h"
#include "report/report.h"
#include "source/input.h"
#include "util/log.h"
#include "util/samefile.h"

/* WRITE(CTX, out) into OUT_PATH (NULL or "-": standard output), whole or not at all. */
static int write_out(const char *out_path, int (*write)(void *ctx, struct f2t_out *out),
		     void *ctx)
{
	bool file = out_path && strcmp(out_path, "-");
	struct f2t_out *out = f2t_out_open(file ? out_path : "-");
	const char *name = file ? out_path : "standard output";
	int ret, cret;

	if (!out) {
		f2t_err("%s: %s", name, strerror(errno));
		return -errno;
	}
	ret = write(ctx, out);
	cret = f2t_out_close(out);
	if (ret)
		f2t_err("report: %s", strerror(-ret));
	else if (cret)
		f2t_err("%s: %s", name, strerror(-cret));
	if ((ret || cret) && file)
		unlink(out_path);
	return ret ? ret : cret;
}

static int write_report(void *r, struct f2t_out *out)
{
	return f2t_report_write(r, out);
}

int f2t_report_run(const char *path, const struct f2t_report_opts *o,
		   const struct f2t_convert_opts *conv, const char *out_path)
{
	struct f2t_report *r = NULL;
	struct f2t_input *in;
	struct f2t_tap tap;
	int ret;

	if (out_path && (ret = f2t_refuse_own_input(path, out_path)))
		return ret;
	in = f2t_input_open(path);
	if (!in)
		return -errno;
	r = f2t_report_new(o, &in->rec);
	if (!r) {
		f2t_err("out of memory");
		ret = -ENOMEM;
		goto out;
	}
	tap = f2t_report_tap(r);
	ret = f2t_convert_input(in, conv, &tap);
	/* A trace output that failed alone (record --report) leaves the report whole. */
	if (r->ended) {
		int wret = write_out(out_path, write_report, r);

		ret = ret ? ret : wret;
	}
out:
	f2t_report_free(r);
	f2t_input_close(in);
	return ret;
}

struct offcpu_out {
	const struct f2t_offcpu_report *r;
	const struct f2t_tasks *tasks;
	const struct f2t_offcpu_report_opts *o;
};

static int write_offcpu(void *ctx, struct f2t_out *out)
{
	const struct offcpu_out *w = ctx;

	return f2t_offcpu_report_write(w->r, w->tasks, w->o, out);
}

int f2t_offcpu_report_run(const char *path, const struct f2t_offcpu_report_opts *o,
			  const struct f2t_convert_opts *conv)
{
	struct f2t_offcpu_report *r = NULL;
	struct f2t_input *in;
	struct f2t_tap tap;
	int ret;

	in = f2t_input_open(path);
	if (!in)
		return -errno;
	r = f2t_offcpu_report_new();
	if (!r) {
		f2t_err("%s: out of memory", path);
		ret = -ENOMEM;
		goto out;
	}
	tap = f2t_offcpu_report_tap(r, path);
	/* The tracker keeps the names up to date: the report names threads as they ended. */
	ret = f2t_convert_input(in, conv, &tap);
	if (!ret)
		ret = write_out(NULL, write_offcpu,
				&(struct offcpu_out){ .r = r, .tasks = in->rec.tasks, .o = o });
out:
	f2t_offcpu_report_free(r);
	f2t_input_close(in);
	return ret;
}
