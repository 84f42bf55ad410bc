/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder's latency trigger (--trigger-latency): the BPF
 * program of bpf/latency.bpf.c measures each watched thread's wait from
 * its wakeup to its running, in the kernel, as it happens, and hands the
 * recorder the waits longer than the threshold.  A build without clang,
 * bpftool or libbpf has only a stub that says so.
 */
#ifndef F2T_LATENCY_H
#define F2T_LATENCY_H

#include <stdint.h>
#include <sys/types.h>

#include "record/latency_rec.h"
#include "record/sampler.h"

struct f2t_latency_opts {
	uint64_t threshold_ns;		/* longer waits trigger */
	enum f2t_sample_scope scope;	/* whose wakeups (filtered in the kernel) */
	pid_t child;			/* F2T_SCOPE_COMMAND: the held child */
	const pid_t *pids;		/* F2T_SCOPE_PIDS */
	size_t npids;
};

struct f2t_latency;

/**
 * f2t_latency_open() - load and attach the latency trigger
 * @out: the recorder's handle
 * @o: the threshold and whose threads
 *
 * Prints one line saying what is missing when it fails.
 *
 * Return: 0 or negative errno.
 */
int f2t_latency_open(struct f2t_latency **out, const struct f2t_latency_opts *o);

/** f2t_latency_fd() - what to poll: readable when a wait crossed the threshold */
int f2t_latency_fd(const struct f2t_latency *l);

/**
 * f2t_latency_read() - the longest wait the ring holds, emptying it
 * @hit: filled in when there was one
 *
 * Return: 1 with @hit filled, 0 when the ring was empty, or negative errno.
 */
int f2t_latency_read(struct f2t_latency *l, struct f2t_latency_rec *hit);

/** f2t_latency_close() - detach and free; NULL is fine */
void f2t_latency_close(struct f2t_latency *l);

#endif
