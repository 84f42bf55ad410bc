/* SPDX-License-Identifier: MIT */
/*
 * Which CPU samples belong to the recording.  The recorder samples with
 * per-CPU events, every task on every CPU, whatever the scope: an event bound
 * to a task costs a PMU reprogramming at each of its context switches.  For
 * the command or -p scope it names the root processes in PERF_INFO
 * (roots=), and the conversion keeps only their samples here, following the
 * perf records in time order:
 *   - the roots; a command only from its exec on (before, it is a copy of
 *     the recorder, held at its gate);
 *   - every thread of a process in scope (samples are matched by tgid);
 *   - every process forked by a task in scope (FORK records), as the
 *     inherited task-bound events of older recorders did; a pid that comes
 *     back as a process forked by one out of scope is out again.
 * Captures without roots= were filtered by the kernel: all is kept.
 */
#ifndef F2T_SAMPLE_FILTER_H
#define F2T_SAMPLE_FILTER_H

#include <stddef.h>
#include <stdint.h>

struct f2t_sample_filter;

/**
 * f2t_sample_filter_new() - the filter a capture's PERF_INFO asks for
 * @scope: its scope= value ("all", "command", "pids"), or NULL
 * @roots: its roots= value (comma-separated pids), or NULL
 *
 * Return: the filter; NULL with errno 0 when every sample is kept (no
 * roots=, or scope all); NULL with errno EINVAL (malformed @roots) or ENOMEM.
 */
struct f2t_sample_filter *f2t_sample_filter_new(const char *scope, const char *roots);

/**
 * f2t_sample_filter_skip() - follow one perf record, in time order
 * @s: the filter; NULL skips nothing
 * @rec: the record, header included
 * @size: its bytes (from the header, already checked to fit)
 * @sample_type: the capture's, to find a sample's pid
 *
 * Return: 1 for a sample of a process out of scope (counted: leave it out),
 * 0 for every other record, -ENOMEM.
 */
int f2t_sample_filter_skip(struct f2t_sample_filter *s, const unsigned char *rec, size_t size,
			  uint64_t sample_type);

/* Samples left out so far; 0 for NULL. */
uint64_t f2t_sample_filter_left_out(const struct f2t_sample_filter *s);

void f2t_sample_filter_free(struct f2t_sample_filter *s);

#endif
