/* SPDX-License-Identifier: MIT */
/*
 * Perf source: decodes a capture's PERF_DATA records (CPU samples and the
 * records that describe address spaces) and yields F2T_EV_SAMPLE events in
 * timestamp order, merging the per-CPU rings, each sample's stack
 * symbolized against the address spaces as they were at that moment.
 */
#ifndef F2T_PERFSRC_H
#define F2T_PERFSRC_H

#include <stddef.h>

#include "capture/capture.h"
#include "model/event.h"
#include "model/stats.h"

struct f2t_perfsrc;

/**
 * f2t_perfsrc_open() - prepare decoding the samples of @cap
 * @debug_root: where separate debug files live (NULL: the system's)
 *
 * Return: the source; NULL with errno ENOENT when the capture has no
 * samples (not an error), or NULL + errno with a message naming the file
 * and offset in @err.
 */
struct f2t_perfsrc *f2t_perfsrc_open(const struct f2t_capr *cap, const char *debug_root,
				     char *err, size_t errlen);

/**
 * f2t_perfsrc_next() - the next sample in time order
 *
 * Strings and frames in @ev stay valid until the next call.
 *
 * Return: 1, 0 at the end, or negative errno with a message in @err.
 */
int f2t_perfsrc_next(struct f2t_perfsrc *s, struct f2t_event *ev, char *err, size_t errlen);

/* Adds what decoding counted to @st. */
void f2t_perfsrc_stats(const struct f2t_perfsrc *s, struct f2t_stats *st);

void f2t_perfsrc_close(struct f2t_perfsrc *s);

#endif
