/* SPDX-License-Identifier: MIT */
/*
 * The JSON writer's CPU samples: the global "samples" array and its
 * "stackFrames" dictionary (shared/specs/trace-event-format.md).  Samples
 * are spooled as they come (memory stays flat) and written, with the
 * deduplicated frame tree, after traceEvents and systemTraceEvents.  Every
 * sample's "sf" is in stackFrames: catapult refuses a trace otherwise.
 */
#ifndef F2T_JSON_SAMPLES_H
#define F2T_JSON_SAMPLES_H

#include <stdint.h>

#include "model/event.h"
#include "util/out.h"

struct f2t_jsamples;

/* @near: the output's path, so the spool lands beside it (may be NULL). */
struct f2t_jsamples *f2t_jsamples_new(const char *near);
void f2t_jsamples_free(struct f2t_jsamples *j);

/**
 * f2t_jsamples_event() - spool one F2T_EV_SAMPLE (other kinds are ignored)
 *
 * Return: 0 or negative errno.
 */
int f2t_jsamples_event(struct f2t_jsamples *j, const struct f2t_event *ev);

/**
 * f2t_jsamples_write() - ',"samples":[...],"stackFrames":{...}' into @o
 *
 * Writes nothing when no sample came.  Return: 0 or negative errno.
 */
int f2t_jsamples_write(struct f2t_jsamples *j, struct f2t_out *o);

/* Samples spooled, and distinct stack-frame nodes. */
uint64_t f2t_jsamples_count(const struct f2t_jsamples *j);
uint32_t f2t_jsamples_frames(const struct f2t_jsamples *j);

#endif
