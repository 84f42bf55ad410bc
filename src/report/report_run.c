// SPDX-License-Identifier: MIT
/* A report on an input file: open it, one pass (with any conversion), write. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "report/report-local.h"
#include "report/report.h"
#include "source/input.h"
#include "util/log.h"
#include "util/samefile.h"

static int write_report(struct f2t_report *r, const char *out_path)
{
	bool file = out_path && strcmp(out_path, "-");
	struct f2t_out *out = f2t_out_open(file ? out_path : "-");
	const char *name = file ? out_path : "standard output";
	int ret, cret;

	if (!out) {
		f2t_err("%s: %s", name, strerror(errno));
		return -errno;
	}
	ret = f2t_report_write(r, out);
	cret = f2t_out_close(out);
	if (ret)
		f2t_err("report: %s", strerror(-ret));
	else if (cret)
		f2t_err("%s: %s", name, strerror(-cret));
	if ((ret || cret) && file)
		unlink(out_path);
	return ret ? ret : cret;
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
		int wret = write_report(r, out_path);

		ret = ret ? ret : wret;
	}
out:
	f2t_report_free(r);
	f2t_input_close(in);
	return ret;
}
