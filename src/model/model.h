/* SPDX-License-Identifier: MIT */
/*
 * The model: runs once per conversion, between the tracker and the writers,
 * and turns events into items (model/item.h) that every writer draws the
 * same way:
 *  - trace_marker writes: slices, counters, async slices, instants, clock
 *    syncs (model/marker_track.h decides);
 *  - function tracer calls: instants; function_graph calls: nested slices
 *    (model/fgraph.h);
 *  - irq and softirq handlers: nested slices on per-CPU pseudo threads
 *    (model/cpu_tracks.h), idle and frequency: counters of the pseudo
 *    process "CPUs" (model/pseudo.h);
 *  - other tracepoints: instants with their fields as arguments;
 *  - CPU samples and off-CPU episodes: their stacks interned once, defined
 *    as items before their first use (model/profile.h).
 * It also keeps what is summed over the run: CPU time per thread, the
 * distinct stacks, and its share of the run's counts (model/stats.h).
 *
 * Scheduling events (switches, wakeups) and the kernel's text are not
 * items: writers take those from the events themselves.  What a print
 * event stands for in the formats that write it too is the model's
 * decision as well (f2t_model_print()).
 */
#ifndef F2T_MODEL_H
#define F2T_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/cputime.h"
#include "model/event.h"
#include "model/item.h"
#include "model/marker_track.h"
#include "model/recording.h"
#include "model/stats.h"

struct f2t_model;

/* Receives each item; a non-zero return stops and is passed on. */
typedef int (*f2t_item_fn)(void *ctx, const struct f2t_item *it);

/**
 * f2t_model_new() - a model for one recording
 * @rec: the recording; its task table (kept current by the tracker, read
 *	 here) says which process a thread is in
 * @own_sync_id: a clock sync id the outputs use themselves (NULL: none): a
 *	 marker with this id becomes an instant, not a second clock sync
 *
 * Return: the model, or NULL with errno set (ENOMEM).
 */
struct f2t_model *f2t_model_new(const struct f2t_recording *rec, const char *own_sync_id);

/** f2t_model_free() - free @m; NULL is fine */
void f2t_model_free(struct f2t_model *m);

/*
 * Whether events of KIND make no items: writers draw scheduling from the
 * events themselves, and only the CPU time tally (f2t_model_count_cputime())
 * reads them.  Inline so that the pipeline can pass them by without a call,
 * most events being these.
 */
static inline bool f2t_model_sched_only(enum f2t_event_kind kind)
{
	return kind == F2T_EV_SWITCH || kind == F2T_EV_WAKING || kind == F2T_EV_WAKEUP ||
	       kind == F2T_EV_WAKEUP_NEW;
}

/**
 * f2t_model_event() - the items for one event
 * @m: the model
 * @ev: the event, after the tracker has seen it
 * @emit: called for each item, in drawing order
 * @ctx: passed to @emit
 *
 * Return: 0, -ENOMEM, or what @emit returned to stop.
 */
int f2t_model_event(struct f2t_model *m, const struct f2t_event *ev, f2t_item_fn emit,
		    void *ctx);

/**
 * f2t_model_counts() - add the model's counts to @st
 *
 * Marker outcomes, function_graph exits without entry, distinct stack
 * nodes, the recorder's own sync markers' kernel times.
 */
void f2t_model_counts(const struct f2t_model *m, struct f2t_stats *st);

/**
 * f2t_model_count_cputime() - tally CPU time per thread from now on
 * @m: the model, before its first event
 *
 * Only for a writer that reads it (output/format.h): the tally costs every
 * switch a call and a task lookup, for nothing when no one reads it.
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_model_count_cputime(struct f2t_model *m);

/**
 * f2t_model_cputime() - CPU time per thread so far (f2t_cputime_of()); NULL
 * unless f2t_model_count_cputime() was called
 */
const struct f2t_cputime *f2t_model_cputime(const struct f2t_model *m);

/**
 * f2t_model_print() - what the print event now passing stands for
 * @m: the model, which has seen the event (f2t_model_event())
 *
 * Whether Perfetto's importer reads the event as its item, and with which
 * text; whether its line in ftrace text repeats a clock sync
 * (model/marker_track.h).  Valid from the event's items to the writers'
 * event() call for it.
 */
const struct f2t_mprint *f2t_model_print(const struct f2t_model *m);

/**
 * f2t_model_report() - tell the user on stderr what went wrong with markers
 *
 * One warning line when markers were malformed, ends were unmatched or
 * sync ids repeated; nothing otherwise.
 */
void f2t_model_report(const struct f2t_model *m);

#endif
