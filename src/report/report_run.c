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

int f2t_report_write_to(const char *out_path, int (*write)(void *ctx, struct f2t_out *out),
			void *ctx)
{
	bool file = out_path && strcmp(out_path, "-");
	struct f2t_out *out = f2t_out_open(file ? out_path : "-");
	const char *name = file ? out_path : "standard output";
	unsigned long said = f2t_errors();
	int ret, cret;

	if (!out) {
		f2t_err("%s: %s", name, strerror(errno));
		return -errno;
	}
	ret = write(ctx, out);
	if (ret) {
		f2t_out_abort(out);
		if (f2t_errors() == said)
			f2t_err("report: %s", strerror(-ret));
		return ret;
	}
	cret = f2t_out_close(out);
	if (cret)
		f2t_err("%s: %s", name, strerror(-cret));
	return cret;
}

static int write_report(void *r, struct f2t_out *out)
{
	return f2t_report_write(r, out);
}

/* Two taps fed as one: the report's and another analysis's. */
struct tap_pair {
	struct f2t_tap a, b;
};

static int pair_event(void *ctx, const struct f2t_event *ev)
{
	struct tap_pair *t = ctx;

	return t->a.event(t->a.ctx, ev) ?: t->b.event(t->b.ctx, ev);
}

static int pair_end(void *ctx, const struct f2t_stats *st)
{
	struct tap_pair *t = ctx;

	return t->a.end(t->a.ctx, st) ?: t->b.end(t->b.ctx, st);
}

int f2t_report_input_run(const char *path, const struct f2t_report_opts *o,
			 const struct f2t_convert_opts *conv, const struct f2t_tap *extra,
			 struct f2t_report_input *ri)
{
	struct tap_pair pair;
	struct f2t_tap tap;

	*ri = (struct f2t_report_input){ 0 };
	ri->in = f2t_input_open(path);
	if (!ri->in)
		return -errno;
	ri->r = f2t_report_new(o, &ri->in->rec);
	if (!ri->r) {
		f2t_err("out of memory");
		return -ENOMEM;
	}
	tap = f2t_report_tap(ri->r);
	if (extra) {
		pair = (struct tap_pair){ tap, *extra };
		tap = (struct f2t_tap){ .event = pair_event, .end = pair_end, .ctx = &pair };
	}
	return f2t_convert_input(ri->in, conv, &tap);
}

void f2t_report_input_close(struct f2t_report_input *ri)
{
	f2t_report_free(ri->r);
	f2t_input_close(ri->in);
	*ri = (struct f2t_report_input){ 0 };
}

int f2t_report_run(const char *path, const struct f2t_report_opts *o,
		   const struct f2t_convert_opts *conv, const char *out_path)
{
	struct f2t_report_input ri;
	int ret;

	if (out_path && (ret = f2t_refuse_own_input(path, out_path)))
		return ret;
	ret = f2t_report_input_run(path, o, conv, NULL, &ri);
	/* A trace output that failed alone (record --report) leaves the report whole. */
	if (ri.r && ri.r->ended) {
		int wret = f2t_report_write_to(out_path, write_report, ri.r);

		ret = ret ? ret : wret;
	}
	f2t_report_input_close(&ri);
	return ret;
}

struct many {
	const char *const *paths;
	size_t n;
	const struct f2t_report_opts *o;
	const struct f2t_convert_opts *conv;
};

/* Each input in turn: its pass, then its rows, the CSV header only before the first. */
static int write_many(void *ctx, struct f2t_out *out)
{
	const struct many *m = ctx;
	int ret = 0;

	for (size_t i = 0; i < m->n && !ret; i++) {
		struct f2t_report_input ri;

		ret = f2t_report_input_run(m->paths[i], m->o, m->conv, NULL, &ri);
		if (!ret) {
			ri.r->continued = i > 0;
			ret = f2t_report_write(ri.r, out);
		}
		f2t_report_input_close(&ri);
	}
	return ret;
}

int f2t_report_run_many(const char *const *paths, size_t n, const struct f2t_report_opts *o,
			const struct f2t_convert_opts *conv, const char *out_path)
{
	struct many m = { paths, n, o, conv };
	int ret;

	for (size_t i = 0; out_path && i < n; i++)
		if ((ret = f2t_refuse_own_input(paths[i], out_path)))
			return ret;
	return f2t_report_write_to(out_path, write_many, &m);
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
		ret = f2t_report_write_to(NULL, write_offcpu,
				&(struct offcpu_out){ .r = r, .tasks = in->rec.tasks, .o = o });
out:
	f2t_offcpu_report_free(r);
	f2t_input_close(in);
	return ret;
}
