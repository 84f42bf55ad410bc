// SPDX-License-Identifier: MIT
/*
 * The latency trigger in a build without BPF (clang, bpftool or libbpf
 * were missing when it was built): --trigger-latency says so.
 */
#include <errno.h>
#include <stddef.h>

#include "record/latency.h"
#include "util/log.h"

int f2t_latency_open(struct f2t_latency **out, const struct f2t_latency_opts *o)
{
	*out = NULL;
	f2t_err("--trigger-latency: this ftrace2trace was built without BPF support "
		"(clang, bpftool and libbpf were missing at build time)");
	return -EOPNOTSUPP;
}

int f2t_latency_fd(const struct f2t_latency *l)
{
	return -1;
}

int f2t_latency_read(struct f2t_latency *l, struct f2t_latency_rec *hit)
{
	return 0;
}

void f2t_latency_close(struct f2t_latency *l)
{
}

void f2t_latency_drop(struct f2t_latency *l)
{
}
