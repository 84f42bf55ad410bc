// SPDX-License-Identifier: MIT
/*
 * Off-CPU recording in a build without BPF (clang, bpftool or libbpf were
 * missing when it was built): --off-cpu says so and nothing else changes.
 */
#include <errno.h>
#include <stddef.h>

#include "record/offcpu.h"
#include "util/log.h"

int f2t_offcpu_open(struct f2t_offcpu **out, const struct f2t_offcpu_opts *o,
		    struct f2t_capw *w)
{
	*out = NULL;
	f2t_err("--off-cpu: this ftrace2trace was built without BPF support "
		"(clang, bpftool and libbpf were missing at build time)");
	return -EOPNOTSUPP;
}

int f2t_offcpu_timeout(const struct f2t_offcpu *oc, int ms)
{
	return ms;
}

int f2t_offcpu_read(struct f2t_offcpu *oc)
{
	return 0;
}

void f2t_offcpu_window(struct f2t_offcpu *oc, struct f2t_window *win)
{
}

int f2t_offcpu_capture(struct f2t_offcpu *oc, struct f2t_capw *w)
{
	return 0;
}

int f2t_offcpu_write_end(struct f2t_offcpu *oc, struct f2t_offcpu_counts *counts)
{
	return 0;
}

int f2t_offcpu_finish(struct f2t_offcpu *oc, struct f2t_offcpu_counts *counts)
{
	return 0;
}

void f2t_offcpu_close(struct f2t_offcpu *oc)
{
}
