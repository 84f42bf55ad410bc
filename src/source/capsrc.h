/* SPDX-License-Identifier: MIT */
/*
 * Capture source: decodes a capture's ring-buffer pages with libtraceevent
 * (the kernel's own format files, saved in the capture) and yields events in
 * timestamp order, merging the per-CPU streams.
 */
#ifndef F2T_CAPSRC_H
#define F2T_CAPSRC_H

#include <stddef.h>

#include "capture/capture.h"
#include "model/event.h"
#include "model/stats.h"
#include "model/tasks.h"

struct f2t_capsrc;

/*
 * Prepares decoding of CAP.  TASKS is used to print comm and tgid in the
 * kernel's text (f2t_event_text()).  Returns NULL + errno with a message
 * naming the file and offset in ERR.
 */
struct f2t_capsrc *f2t_capsrc_open(const struct f2t_capr *cap,
				   struct f2t_tasks *tasks,
				   char *err, size_t errlen);

/*
 * Next event in time order into EV.  Returns 1, 0 at the end, or a negative
 * errno with a message in ERR (a corrupt page, naming file and offset).
 */
int f2t_capsrc_next(struct f2t_capsrc *s, struct f2t_event *ev,
		    char *err, size_t errlen);

/* Adds what decoding counted (lost, unknown, bad records) to ST. */
void f2t_capsrc_stats(const struct f2t_capsrc *s, struct f2t_stats *st);

/* Bytes of ring-buffer data consumed so far / in all (for progress). */
void f2t_capsrc_progress(const struct f2t_capsrc *s, uint64_t *done, uint64_t *total);

void f2t_capsrc_close(struct f2t_capsrc *s);

#endif
