/* SPDX-License-Identifier: MIT */
/*
 * Timer-driven CPU sampling while recording: one perf_event_open() event
 * per CPU, bound to no task (cycles where the PMU has it, else cpu-clock),
 * sampling ip, tid, time, cpu, period and the kernel+user callchain on
 * CLOCK_MONOTONIC (the ftrace clock), with MMAP2 (build-ids), COMM, FORK
 * and EXIT records.  Each CPU's ring is copied into the capture as
 * PERF_DATA records, whole and unparsed; decoding, symbolization and the
 * choice of the scope's samples happen at conversion.
 */
#ifndef F2T_SAMPLER_H
#define F2T_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "record/traced.h"
#include "record/window.h"

/* Whose samples the conversion keeps; every task's are recorded. */
enum f2t_sample_scope {
	F2T_SCOPE_ALL,		/* every task on every CPU */
	F2T_SCOPE_COMMAND,	/* the command and its descendants, from its exec */
	F2T_SCOPE_PIDS,		/* the -p processes' threads and their descendants */
};

enum f2t_callgraph {
	F2T_CG_FP,		/* the kernel walks frame pointers */
	F2T_CG_DWARF,		/* user registers + stack copied, unwound at conversion */
};

struct f2t_sampler_opts {
	unsigned int freq;		/* samples per second per CPU; 0: none, only the
				 * address-space records (a dummy event) */
	enum f2t_callgraph callgraph;
	unsigned int stack_bytes;	/* user stack copied per sample (dwarf) */
	enum f2t_sample_scope scope;
	pid_t child;			/* F2T_SCOPE_COMMAND: the held child */
	uid_t child_uid;		/* the user it runs as */
	const pid_t *pids;		/* F2T_SCOPE_PIDS */
	size_t npids;
	unsigned int ring_pages;	/* per CPU, a power of two; 0 = default */
};

struct f2t_sampler_ring {
	int cpu;
	int fd;			/* the CPU's event */
	void *base;		/* perf_event_mmap_page, then the data pages */
	size_t len;		/* mapped bytes */
};

struct f2t_sampler {
	struct f2t_capw *w;
	struct f2t_sampler_ring *rings;	/* one per online CPU */
	size_t nrings;
	size_t data_bytes;	/* ring data size, a power of two */
	unsigned char *copy;	/* one ring's worth, for the wrap-around */
	char event[32];		/* "cycles" or "cpu-clock" */
	enum f2t_sample_scope scope;
	uint64_t sample_type;
	char *info;		/* the PERF_INFO text, for every snapshot's capture */
	size_t info_len;
	struct f2t_window *win;	/* a flight recorder's: reads go there, not to w */
	/* Counted while copying, by walking record headers only. */
	uint64_t bytes, samples, lost, records;
	struct f2t_traced traced;	/* the scope's processes, FORK records followed */
};

/**
 * f2t_sampler_open() - open the events and their rings, disabled
 * @s: filled in
 * @o: what to sample
 * @ncpus: CPUs to open (possible CPUs; offline ones are skipped)
 * @w: the capture; a PERF_INFO record is written now, naming the scope's
 *     processes (roots=) for the conversion to keep their samples
 *
 * Return: 0 or negative errno; prints its errors but a capture write error
 * (f2t_capw_error()).
 */
int f2t_sampler_open(struct f2t_sampler *s, const struct f2t_sampler_opts *o, int ncpus,
		     struct f2t_capw *w);

/**
 * f2t_sampler_write_info() - the PERF_INFO record again, into another capture
 *
 * Return: 0 or negative errno (a capture write error).
 */
int f2t_sampler_write_info(struct f2t_sampler *s, struct f2t_capw *w);

/*
 * A flight recorder's keep functions (record/window.h) for the rings'
 * records: f2t_sampler_keep_past() keeps what names the samples of later
 * windows (mappings, names, forks, exits; not samples, nor the counts of
 * samples lost or throttled in the past); f2t_sampler_keep_tasks() keeps
 * the names, forks and exits alone, for a capture given the mappings
 * anew from /proc.
 */
size_t f2t_sampler_keep_past(unsigned char *data, size_t len);
size_t f2t_sampler_keep_tasks(unsigned char *data, size_t len);

/**
 * f2t_sampler_enable() - start sampling
 *
 * Return: 0 or negative errno.
 */
int f2t_sampler_enable(struct f2t_sampler *s);

/* Stops sampling; what is in the rings stays there for the drain. */
void f2t_sampler_disable(struct f2t_sampler *s);

/**
 * f2t_sampler_read() - copy what ring @i holds into the capture, or into
 * the window when s->win is set
 *
 * Return: 0 or negative errno; prints its errors but a capture write error.
 */
int f2t_sampler_read(struct f2t_sampler *s, size_t i);

/* Reads every ring.  Return: 0 or negative errno. */
int f2t_sampler_drain(struct f2t_sampler *s);

/* Unmaps and closes everything. */
void f2t_sampler_close(struct f2t_sampler *s);

#endif
