/* SPDX-License-Identifier: MIT */
/*
 * The scheduling report: where each thread's time went and how long it
 * waited for a CPU, per thread under its process, per CPU, as a latency
 * distribution, and the waits longer than a threshold; as text, JSON or
 * CSV.  It is a tap on the pipeline (pipeline/pipeline.h) over the
 * thread-state stage (model/thread_states.h), so it runs in the same pass
 * as any conversion, from any input.  Memory grows with threads (and with
 * the slow waits listed), never with events.  The figures are defined in
 * ftrace2trace-report(1).
 *
 *   f2t_report_run(path, &opts, &conv, "-");       (what report and record run)
 * or, step by step:
 *   r = f2t_report_new(&opts, &in->rec);
 *   tap = f2t_report_tap(r);  f2t_pipeline_add_tap(p, &tap);
 *   ... f2t_pipeline_run(), f2t_pipeline_finish() ...
 *   f2t_report_write(r, out);  f2t_report_free(r);
 */
#ifndef F2T_REPORT_H
#define F2T_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/recording.h"
#include "pipeline/convert.h"
#include "pipeline/pipeline.h"
#include "util/out.h"

enum f2t_report_format {
	F2T_REPORT_TEXT,
	F2T_REPORT_JSON,
	F2T_REPORT_CSV,
	F2T_REPORT_NDJSON,	/* one JSON object a line per thread, with the identity */
};

struct f2t_report_opts {
	enum f2t_report_format format;
	const char *sort;		/* a column (f2t_report_sort_ok()); NULL: running */
	unsigned int top;		/* the first N processes, N threads each; 0: all */
	/* Which threads: any of these processes, threads, or names (thread's
	 * or process's); none given: every thread. */
	const int32_t *pids, *tids;
	size_t npids, ntids;
	const char *const *comms;
	size_t ncomms;
	/* The window, from the first event; to_ns 0: to the end. */
	uint64_t from_ns, to_ns;
	uint64_t slow_ns;		/* list the waits longer than this; 0: none */
	const char *title;		/* what the report is about; NULL: the input's path */
	/* The text: every process, not only the recording's (its command's,
	 * -p's and what they started) with the others summed in one line. */
	bool all_processes;
	unsigned int width;		/* columns to fit the tables in; 0: no limit */
};

/* Processes and threads of each the text lists unless --top says. */
#define F2T_REPORT_DEFAULT_TOP 10

struct f2t_report;

/**
 * f2t_report_new() - a report over the events of @rec
 * @o: what to show (copied; the arrays it points to must outlive the report)
 * @rec: the recording: its task table names threads and processes, its
 *	 facts head the report; must outlive the report
 *
 * Return: the report, or NULL with errno set (ENOMEM).
 */
struct f2t_report *f2t_report_new(const struct f2t_report_opts *o,
				  const struct f2t_recording *rec);

/** f2t_report_free() - free @r; NULL is fine */
void f2t_report_free(struct f2t_report *r);

/** f2t_report_tap() - the tap that feeds @r, for f2t_pipeline_add_tap() */
struct f2t_tap f2t_report_tap(struct f2t_report *r);

/**
 * f2t_report_write() - write the report, after the pipeline has finished
 * @out: where (errors are @out's, sticky, seen at f2t_out_close())
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_report_write(struct f2t_report *r, struct f2t_out *out);

/**
 * f2t_report_run() - the report on a file of any kind we read
 * @path: the input (source/input.h)
 * @o: what to show
 * @conv: the outputs to convert into in the same pass (record --report;
 *	  none for `report`), progress and summary on stderr or not
 * @out_path: where the report goes; NULL or "-": standard output.  Written
 *	  once the pass has succeeded; a file is removed if writing fails.
 *
 * Return: 0, or a negative errno (reported).
 */
int f2t_report_run(const char *path, const struct f2t_report_opts *o,
		   const struct f2t_convert_opts *conv, const char *out_path);

/**
 * f2t_report_run_many() - the rows of several inputs as one table: their
 *			   threads, each with its input's identity
 *			   (F2T_REPORT_CSV: one header; F2T_REPORT_NDJSON)
 * @paths: the inputs, each read in its own pass, in this order
 *
 * Written whole once every input has been read, or not at all.
 * Return: 0, or a negative errno (reported).
 */
int f2t_report_run_many(const char *const *paths, size_t n, const struct f2t_report_opts *o,
			const struct f2t_convert_opts *conv, const char *out_path);

/**
 * f2t_report_diff_run() - two recordings compared: threads and processes
 *			   matched by name, CPUs by number, off-CPU stacks
 * @o: the filters, --top and the format (text, JSON or CSV) of the
 *     comparison; each input is read with them
 * @folded: instead, every off-CPU stack as "STACK A_US B_US" lines (the
 *	    form of difffolded.pl, which flamegraph.pl draws)
 *
 * Return: 0, or a negative errno (reported).
 */
int f2t_report_diff_run(const char *a, const char *b, const struct f2t_report_opts *o,
			bool folded, const struct f2t_convert_opts *conv, const char *out_path);

/** f2t_report_sort_ok() - is @name a column the report can sort by? */
int f2t_report_sort_ok(const char *name);

/** f2t_report_columns() - the sortable column names, for messages */
void f2t_report_columns(char *buf, size_t len);

#endif
