/* SPDX-License-Identifier: MIT */
/*
 * The capture's off-CPU source: decodes the OFFCPU_DATA records that
 * `record --off-cpu` wrote (capture/offcpu_rec.h) into F2T_EV_OFFCPU
 * events, one per blocked episode, in order of the time the thread ran
 * again, with its stack and its waker's symbolized: kernel frames through
 * the saved kallsyms, user frames through the processes' mappings of that
 * moment (the perf records' MMAP2, FORK and exec, source/perf/perfwalk.h).
 */
#ifndef F2T_OFFCPU_SRC_H
#define F2T_OFFCPU_SRC_H

#include "capture/capture.h"
#include "model/recording.h"
#include "source/source.h"

/**
 * f2t_offcpu_src_open() - the off-CPU episodes of a capture
 * @cap: the capture; must outlive the source
 * @rec: what the capture says about the recording (symbols, mappings)
 *
 * Return: the source; NULL with errno ENOENT when the capture has none
 * (not an error, nothing reported), or NULL with errno set after reporting
 * why (naming the file and offset).
 */
struct f2t_source *f2t_offcpu_src_open(const struct f2t_capr *cap,
				       const struct f2t_recording *rec);

#endif
