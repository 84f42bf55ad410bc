/* SPDX-License-Identifier: MIT */
/*
 * The one pipeline every conversion runs, whoever asks (convert, the end of
 * record, report): events, in time order, go to the tracker (task table,
 * scheduling gaps), then to the model (items, model/model.h), then to every
 * output's writer, items first.  Outputs are written whole or not at all.
 * An error of the input, of memory or of a tap removes every output; a
 * writer's error (its file, or what its format cannot hold) removes its own
 * output only: the others and the taps go on, and the run still fails at
 * its end.  Errors of an output are reported here, naming that output;
 * inputs report their own (file and offset).
 *
 *   p = f2t_pipeline_new(rec);
 *   f2t_pipeline_add_file(p, "trace.fxt", F2T_FMT_FXT);  ...
 *   f2t_pipeline_run(p, source, progress);   (or f2t_pipeline_event() per event)
 *   f2t_pipeline_finish(p, source);
 *   f2t_pipeline_free(p);
 */
#ifndef F2T_PIPELINE_H
#define F2T_PIPELINE_H

#include <stdbool.h>

#include "model/recording.h"
#include "model/stats.h"
#include "output/writer.h"
#include "source/source.h"

#define F2T_MAX_OUTPUTS 8
#define F2T_MAX_TAPS 4

/*
 * A consumer of the events that writes no trace file (an analysis, such as
 * report/): event() sees every event after the tracker, so the task table
 * is current; end() gets the run's counts, whole.  A non-zero return stops
 * the run (the tap says why; it gets no output file to remove).
 */
struct f2t_tap {
	int (*event)(void *ctx, const struct f2t_event *ev);
	int (*end)(void *ctx, const struct f2t_stats *st);
	void *ctx;
};

struct f2t_pipeline;

/**
 * f2t_pipeline_new() - a pipeline for one recording, with no output yet
 * @rec: the recording; its task table is updated as events pass, and it
 *	 must outlive the pipeline
 *
 * Return: the pipeline, or NULL with errno set (reported).
 */
struct f2t_pipeline *f2t_pipeline_new(struct f2t_recording *rec);

/**
 * f2t_pipeline_add_file() - an output file in format @fmt
 * @path: created (truncated) now; "-" is standard output
 *
 * Return: 0, or a negative errno (reported, naming @path).
 */
int f2t_pipeline_add_file(struct f2t_pipeline *p, const char *path, enum f2t_format fmt);

/**
 * f2t_pipeline_add_out() - an output the caller opened
 * @out: closed by the pipeline (f2t_out_close()) when it is freed
 *
 * Return: 0, or a negative errno (reported).
 */
int f2t_pipeline_add_out(struct f2t_pipeline *p, struct f2t_out *out, enum f2t_format fmt);

/**
 * f2t_pipeline_add_tap() - one more consumer of the same pass (copied)
 *
 * Return: 0, or -EINVAL past F2T_MAX_TAPS (reported).
 */
int f2t_pipeline_add_tap(struct f2t_pipeline *p, const struct f2t_tap *tap);

/**
 * f2t_pipeline_event() - one event, after every earlier one
 *
 * The first call starts every output.  Return: 0, or a negative errno
 * (reported).
 */
int f2t_pipeline_event(struct f2t_pipeline *p, const struct f2t_event *ev);

/**
 * f2t_pipeline_run() - every event of @src
 * @progress: show events/s and bytes on stderr every half second
 *
 * Return: 0, or a negative errno (reported).
 */
int f2t_pipeline_run(struct f2t_pipeline *p, struct f2t_source *src, bool progress);

/**
 * f2t_pipeline_finish() - end every output with the run's counts
 * @src: the source the events came from, for its counts (NULL: none)
 *
 * Closes the output files.  On failure, or when any earlier call failed,
 * every output file is removed instead; an output whose writer failed is
 * removed alone, and the others are closed whole (see
 * f2t_pipeline_output_status()).
 *
 * Return: 0, or a negative errno (reported): -EIO when an output failed
 * alone.
 */
int f2t_pipeline_finish(struct f2t_pipeline *p, const struct f2t_source *src);

/**
 * f2t_pipeline_output_status() - what became of an output, after finishing
 * @i: the output's place, in the order they were added
 *
 * Return: 0 when it was written whole; a negative errno when it was removed
 * (its own error, or -ECANCELED when another error ended the run).
 */
int f2t_pipeline_output_status(const struct f2t_pipeline *p, unsigned int i);

/** f2t_pipeline_stats() - the run's counts (whole after f2t_pipeline_finish()) */
const struct f2t_stats *f2t_pipeline_stats(const struct f2t_pipeline *p);

/**
 * f2t_pipeline_free() - free @p; outputs not finished are removed
 */
void f2t_pipeline_free(struct f2t_pipeline *p);

/**
 * f2t_pipeline_summary() - the end-of-run lines on stderr: counts, losses,
 *			    and each output written with how to open it
 * @secs: how long the conversion took
 */
void f2t_pipeline_summary(const struct f2t_pipeline *p, double secs);

#endif
