/* SPDX-License-Identifier: MIT */
/*
 * The capture's perf source: decodes the capture's PERF_DATA records (CPU
 * samples and the records that describe address spaces) and yields
 * F2T_EV_SAMPLE events in timestamp order, merging the per-CPU rings, each
 * sample's stack symbolized against the address spaces as they were at
 * that moment.
 */
#ifndef F2T_PERFSRC_H
#define F2T_PERFSRC_H

#include "capture/capture.h"
#include "model/recording.h"
#include "source/source.h"

/**
 * f2t_perfsrc_open() - the CPU samples of a capture
 * @cap: the capture; must outlive the source
 * @rec: what the capture says about the recording (kallsyms, build-ids,
 *	 JIT maps and /proc maps name the samples' addresses)
 * @debug_root: where separate debug files live (NULL: the system's)
 *
 * Return: the source; NULL with errno ENOENT when the capture has no
 * samples (not an error, nothing reported), or NULL with errno set after
 * reporting why (naming the file and offset).
 */
struct f2t_source *f2t_perfsrc_open(const struct f2t_capr *cap, const struct f2t_recording *rec,
				    const char *debug_root);

#endif
