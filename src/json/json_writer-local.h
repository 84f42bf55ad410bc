/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by json_writer.c (the document, names, the kernel's
 * text, otherData), json_items.c (the model's items as traceEvents) and
 * json_samples.c (CPU samples and their stack frames).
 */
#ifndef F2T_JSON_WRITER_LOCAL_H
#define F2T_JSON_WRITER_LOCAL_H

#include "model/stack_text.h"
#include "output/writer.h"
#include "text/ftrace_text.h"
#include "util/spool.h"

struct json_priv {
	struct f2t_spool events;	/* traceEvents entries, until end() */
	struct f2t_ftext text;		/* systemTraceEvents: straight to the output */
	struct f2t_clock_link link;
	struct f2t_spool sample_spool;	/* "samples" entries, opened at the first */
	uint64_t samples;
	struct f2t_spool node_spool;	/* "stackFrames" entries, likewise */
	uint64_t nodes;
	uint64_t not_in_text;		/* events drawn from traceEvents instead */
	struct f2t_stack_text *stacks;	/* off-CPU slices' stacks as text */
};

/* One item as a traceEvents entry, into the spool (json_items.c). */
int json_write_item(struct f2t_writer *w, const struct f2t_item *it);

/* One sample into the samples spool (json_samples.c). */
int json_sample(struct f2t_writer *w, const struct f2t_item *it);

/* A node of the model's stack tree (F2T_ITEM_STACK_NODE) into its spool (json_samples.c). */
int json_stack_node(struct f2t_writer *w, const struct f2t_item *it);

/*
 * ',"samples":[...],"stackFrames":{...}' from the spools; each only when
 * something came (a sample, or a slice, names a node).  Return: 0 or
 * negative errno.
 */
int json_write_samples(struct f2t_writer *w);

#endif
