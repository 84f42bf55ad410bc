/* SPDX-License-Identifier: MIT */
/*
 * The writer interface: one writer per output file, an encoder of one
 * format.  The pipeline (pipeline/pipeline.h) calls begin() once; then for
 * every event in timestamp order, after the tracker has updated the task
 * table for it, item() for each item the model made of it (model/item.h)
 * and event() with the event itself (scheduling and the kernel's text are
 * taken from events); and end() once with the run's counts.  A writer never
 * knows where events came from, and decides nothing the model decides.
 */
#ifndef F2T_WRITER_H
#define F2T_WRITER_H

#include <stdint.h>

#include "model/event.h"
#include "model/item.h"
#include "model/model.h"
#include "model/recording.h"
#include "model/stats.h"
#include "model/tasks.h"
#include "util/out.h"

enum f2t_format {
	F2T_FMT_NONE = 0,
	F2T_FMT_FXT,
	F2T_FMT_JSON,
	F2T_FMT_SYSTRACE,
	F2T_FMT_PERFETTO,
	F2T_FMT_JSON_GZ,	/* JSON, gzip-compressed */
};

struct f2t_writer;

struct f2t_writer_ops {
	const char *name;
	int (*begin)(struct f2t_writer *w);
	int (*item)(struct f2t_writer *w, const struct f2t_item *it);
	int (*event)(struct f2t_writer *w, const struct f2t_event *ev);
	int (*end)(struct f2t_writer *w, const struct f2t_stats *stats);
	void (*destroy)(struct f2t_writer *w);
};

struct f2t_writer {
	const struct f2t_writer_ops *ops;
	struct f2t_out *out;
	const struct f2t_trace_info *info;
	const struct f2t_recording *rec;	/* info's recording: its side data */
	/*
	 * The task table as the tracker has it for the current event (its
	 * owner: model/tasks.h).  What a writer keeps per task is its own,
	 * in priv (by the task's seq).
	 */
	const struct f2t_tasks *tasks;
	const struct f2t_model *model;	/* CPU times, read at end() */
	void *priv;
	/*
	 * With an error a writer returns, what its format could not hold
	 * ("CPU 70000: ..."), said instead of the errno's text; empty: none.
	 */
	char why[96];
};

/*
 * Each format's constructor fills W->ops and W->priv; out, info, rec,
 * tasks and model are set by the caller beforehand.  Return 0 or negative
 * errno.
 */
int f2t_fxt_writer_init(struct f2t_writer *w);
int f2t_json_writer_init(struct f2t_writer *w);
int f2t_systrace_writer_init(struct f2t_writer *w);
int f2t_perfetto_writer_init(struct f2t_writer *w);

/* "perfetto", "fxt", "json", "json.gz", "systrace"/"txt" -> format; F2T_FMT_NONE if unknown. */
enum f2t_format f2t_format_from_name(const char *name);
/* From a file name's extension (.pftrace, .fxt, .json, ...); F2T_FMT_NONE if none fits. */
enum f2t_format f2t_format_from_path(const char *path);

#endif
