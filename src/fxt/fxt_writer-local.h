/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by fxt_writer.c (the file, its tables, scheduling
 * records, names, counts) and fxt_items.c (the model's items and CPU
 * samples as event and profiler records).
 */
#ifndef F2T_FXT_WRITER_LOCAL_H
#define F2T_FXT_WRITER_LOCAL_H

#include <errno.h>

#include "fxt/fxt_enc.h"
#include "fxt/fxt_prof.h"
#include "fxt/fxt_tables.h"
#include "model/stack_text.h"
#include "output/writer.h"
#include "perfetto/pf_samples.h"
#include "util/idmap.h"

/* Argument words of one record: room for inline text, below the record's limit. */
#define FXT_ARG_WORDS 3500

struct fxt_priv {
	struct fxt_strtab *strs;
	struct fxt_thrtab *threads;
	struct fxt_prof *prof;		/* modules and mappings already written */
	struct f2t_stack_text *stacks;	/* off-CPU slices' stacks, as string arguments */
	/* CPU samples again as Perfetto packets, for blob records (type 3). */
	struct pf_samples *pf;
	struct pb_buf pfbuf;
	/*
	 * The generation of each task's name this file holds, by the task's
	 * seq (0: none, past nnamed: none), and the tids named while the task
	 * table did not know them (named as a new task would be: "<...>").
	 */
	uint32_t *named;
	size_t nnamed, named_cap;
	struct f2t_idmap unknown;
	bool lost_written;
	uint64_t last_ts;	/* of the last event, for records written at the end */
	uint64_t argw[FXT_ARG_WORDS];
	uint64_t rec[FXT_MAX_RECORD_WORDS];
};

/* Appends @n words to the output. */
static inline void fxt_emit(struct f2t_writer *w, const uint64_t *words, int n)
{
	f2t_out_write(w->out, words, (size_t)n * sizeof(uint64_t));
}

/* Writes the record an encoder just put in the scratch buffer, or passes its error on. */
static inline int fxt_emit_encoded(struct f2t_writer *w, int words)
{
	struct fxt_priv *p = w->priv;

	if (words < 0)
		return words;
	fxt_emit(w, p->rec, words);
	return 0;
}

/*
 * Room for a record of up to @words words at the end of the output, to be
 * encoded there in place with its arguments (fxt_args.words pointing into
 * it): the scheduling records, most of a trace, are not copied.  What the
 * record refers to (strings, names) must be written before.
 */
static inline uint64_t *fxt_room(struct f2t_writer *w, size_t words)
{
	/* Aligned as the buffer is: the output gets whole words only. */
	return (uint64_t *)(void *)f2t_out_room(w->out, words * sizeof(uint64_t));
}

/* Keeps the record just encoded in fxt_room(), or passes its error on. */
static inline int fxt_commit(struct f2t_writer *w, int words)
{
	if (words < 0)
		return words;
	f2t_out_commit(w->out, (size_t)words * sizeof(uint64_t));
	return 0;
}

/* A ref for @s, writing its string record first when the index is new. */
int fxt_string_ref(struct f2t_writer *w, const char *s, size_t len, struct fxt_str *ref);

/*
 * A ref for an event's category: one of the writer's constant strings when
 * it is one ("ftrace": every tracepoint's), else as fxt_string_ref().
 */
int fxt_category_ref(struct f2t_writer *w, struct f2t_str cat, struct fxt_str *ref);

/* A ref for the thread, writing its thread record first when the index is new. */
int fxt_thread_ref(struct f2t_writer *w, uint64_t pid, uint64_t tid, struct fxt_thread *ref);

/* Names task @tid (and its process) as the table @t says now (NULL: it knows none). */
int fxt_announce(struct f2t_writer *w, int32_t tid, const struct f2t_task *t);

/* Makes sure the viewer knows task @tid's current name before a record uses it. */
static inline int fxt_ensure_named(struct f2t_writer *w, int32_t tid)
{
	const struct fxt_priv *p = w->priv;
	const struct f2t_task *t;

	/* The idle tasks all share pid 0; viewers know them from their weight: no name. */
	if (tid <= 0)
		return 0;
	t = f2t_tasks_find(w->tasks, tid);
	if (t && t->seq < p->nnamed && p->named[t->seq] == t->gen)
		return 0;
	return fxt_announce(w, tid, t);
}

/*
 * Writes what @pfbuf holds as blob records of Perfetto packets: whole
 * blobs only, or (@all) everything.  Return: 0 or a negative errno.
 */
int fxt_flush_perfetto(struct f2t_writer *w, bool all);

/* The recording's identity as Perfetto packets, into @pfbuf (fxt_identity.c). */
void fxt_identity_packets(struct f2t_writer *w);

/*
 * The recording's identity as the arguments of the instant
 * "ftrace2trace_recording" at @ts.  Return: 0 or a negative errno.
 */
int fxt_write_identity(struct f2t_writer *w, uint64_t ts);

/* The records for one item of the model (fxt_items.c). */
int fxt_write_item(struct f2t_writer *w, const struct f2t_item *it);

#endif
