/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder's latency trigger (--trigger-latency): the BPF
 * program of bpf/latency.bpf.c looks at each CPU's run queue every period
 * for a watched thread waiting to run, since a wakeup, longer than the
 * threshold, in the kernel, as it happens; it hands the recorder that
 * thread and, once it ran, its whole wait.  A build without clang,
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
	int ncpus;
	enum f2t_sample_scope scope;	/* whose wakeups (filtered in the kernel) */
	pid_t child;			/* F2T_SCOPE_COMMAND: the held child */
	const pid_t *pids;		/* F2T_SCOPE_PIDS */
	size_t npids;
};

struct f2t_latency;

/**
 * f2t_latency_period() - how often each run queue is looked at
 * @threshold_ns: the trigger's threshold
 *
 * A quarter of the threshold, within 1 ms (each look costs a timer
 * interrupt) and 50 ms.  A wait is seen once it has lasted the threshold
 * plus up to this.
 */
static inline uint64_t f2t_latency_period(uint64_t threshold_ns)
{
	uint64_t p = threshold_ns / 4;

	return p < 1000000 ? 1000000 : p > 50000000 ? 50000000 : p;
}

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

/*
 * f2t_latency_fd() - what to poll: readable when a wait crossed the
 * threshold; -1 (a value, not a failure) when there is no trigger.
 */
int f2t_latency_fd(const struct f2t_latency *l);

/**
 * f2t_latency_read() - the next record: a thread waiting too long, or the
 * end of such a wait (struct f2t_latency_rec)
 * @hit: filled in when there was one
 *
 * Return: 1 with @hit filled, 0 when the ring was empty, or negative errno.
 */
int f2t_latency_read(struct f2t_latency *l, struct f2t_latency_rec *hit);

/** f2t_latency_close() - detach and free; NULL is fine */
void f2t_latency_close(struct f2t_latency *l);

/**
 * f2t_latency_drop() - in a forked child: close our copies of the
 * descriptors and free, detaching nothing (the parent's trigger stays
 * armed); NULL is fine
 */
void f2t_latency_drop(struct f2t_latency *l);

#endif
