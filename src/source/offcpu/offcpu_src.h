/* SPDX-License-Identifier: MIT */
/*
 * The capture's off-CPU episodes: decodes the OFFCPU_DATA records that
 * `record --off-cpu` wrote (capture/offcpu_rec.h) into F2T_EV_OFFCPU
 * events, one per blocked episode, in order of the time the thread ran
 * again, with its stack and its waker's symbolized: kernel frames through
 * the saved kallsyms, user frames through the processes' mappings of that
 * moment.  Not a source of its own: the perf source (source/perf/perfsrc.h)
 * hands its episodes out between its samples, in time order, so that one
 * replay of the address spaces (perfwalk.h) and one symbolizer serve both,
 * each at its event's moment.
 *
 *   f = f2t_offcpu_feed_open(cap, sym);
 *   while (f2t_offcpu_feed_peek(f, &ts) > 0)
 *	when the replay is at ts: f2t_offcpu_feed_take(f, ev);
 */
#ifndef F2T_OFFCPU_SRC_H
#define F2T_OFFCPU_SRC_H

#include <stdint.h>

#include "capture/capture.h"
#include "model/event.h"
#include "model/stats.h"

struct f2t_offcpu_feed;
struct f2t_symbolizer;
struct f2t_unwinder;

/**
 * f2t_offcpu_unwind_arch() - the machine whose user registers and stacks
 * the capture's episodes keep, for an unwinder
 *
 * Return: its name (uname's machine) to free, or NULL when the episodes
 * keep none (a capture from before they did, or none at all).
 */
char *f2t_offcpu_unwind_arch(const struct f2t_capr *cap);

/**
 * f2t_offcpu_feed_open() - the off-CPU episodes of a capture
 * @cap: the capture; must outlive the feed
 * @sym: names the frames (lent: it must outlive the feed)
 * @unw: unwinds the user stacks' innermost frames (lent likewise); NULL:
 *       the frame-pointer frames alone
 *
 * Return: the feed; NULL with errno ENOENT when the capture has none (not
 * an error, nothing reported), or NULL with errno set after reporting why
 * (naming the file and offset).
 */
struct f2t_offcpu_feed *f2t_offcpu_feed_open(const struct f2t_capr *cap,
					     struct f2t_symbolizer *sym, struct f2t_unwinder *unw);
void f2t_offcpu_feed_free(struct f2t_offcpu_feed *f);

/*
 * The end time of the next episode in *TS: 1, 0 when none is left, or a
 * negative errno after reporting (file and offset).
 */
int f2t_offcpu_feed_peek(struct f2t_offcpu_feed *f, uint64_t *ts);

/*
 * That episode into EV (zeroed by the caller), its stacks symbolized now;
 * its frames are valid until the next take.
 */
void f2t_offcpu_feed_take(struct f2t_offcpu_feed *f, struct f2t_event *ev);

/* Adds the off-CPU counts (the kernel side's, the stacks missing) to @st. */
void f2t_offcpu_feed_counts(const struct f2t_offcpu_feed *f, struct f2t_stats *st);

#endif
