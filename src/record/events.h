/* SPDX-License-Identifier: MIT */
/*
 * The tracepoints a recording enables: the scheduling set every trace
 * needs, plus the user's -e extras (validated up front, with close matches
 * suggested for a typo), and the format records that let a capture be
 * decoded elsewhere.
 */
#ifndef F2T_EVENTS_H
#define F2T_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <tracefs.h>

#include "capture/capture.h"

struct f2t_evsel {
	char *system;
	char *event;		/* NULL: every event of the system */
	bool required;		/* recording is pointless without it */
	bool optional;		/* part of the default set: warn if missing */
	bool enabled;
};

struct f2t_evlist {
	struct f2t_evsel *v;
	size_t n, cap;
};

/**
 * f2t_events_build() - the default set plus the user's extras
 * @l: filled in (free with f2t_events_free())
 * @specs: "SYSTEM" or "SYSTEM:EVENT" (or "SYSTEM/EVENT"); may be comma lists
 * @nspecs: number of specs
 *
 * An extra that tracefs does not know is an error naming it and listing
 * close matches from available_events.
 *
 * Return: 0, -EINVAL (message printed) or -ENOMEM.
 */
int f2t_events_build(struct f2t_evlist *l, const char *const *specs, size_t nspecs);

/**
 * f2t_events_enable() - enable every selected event in an instance
 *
 * A default event this kernel lacks is a warning; sched_switch missing, or
 * an extra failing, is an error.
 *
 * Return: 0 or negative errno (message printed).
 */
int f2t_events_enable(struct f2t_evlist *l, struct tracefs_instance *ti);

/**
 * f2t_events_write_formats() - EVENT_FORMAT records for the capture
 *
 * One per enabled event (every event of a whole-system selection) and
 * ftrace:print, which carries trace_marker writes.
 *
 * Return: 0 or negative errno.
 */
int f2t_events_write_formats(const struct f2t_evlist *l, struct f2t_capw *w);

void f2t_events_free(struct f2t_evlist *l);

#endif
