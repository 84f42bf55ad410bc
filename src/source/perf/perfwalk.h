/* SPDX-License-Identifier: MIT */
/*
 * The capture's perf records (PERF_DATA) in time order, across the CPUs'
 * rings, with the address-space records (MMAP, MMAP2, FORK, COMM on exec)
 * applied to a process map as they pass, so whatever is looked up at a
 * record's time sees the mappings of that moment.  The perf source walks
 * it for its samples, and hands out the off-CPU episodes between them as
 * their times come (perfsrc.c): one replay per conversion.
 */
#ifndef F2T_PERFWALK_H
#define F2T_PERFWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "capture/capture.h"
#include "model/recording.h"
#include "symbols/maps.h"

/* One perf record, valid until the walk's next call. */
struct f2t_perf_rec {
	uint32_t cpu;			/* whose ring held it */
	const unsigned char *rec;	/* header included */
	uint16_t size, type, misc;
	uint64_t ts;
	bool malformed;			/* an address-space record that did not parse */
};

struct f2t_perfwalk;

/**
 * f2t_perfwalk_open() - walk @cap's perf records, applying them to @maps
 * @sample_type: the sampling events' (where a sample keeps its time)
 *
 * Return: the walk, or NULL with errno set (a record of an impossible CPU
 * is reported, naming the file and offset).
 */
struct f2t_perfwalk *f2t_perfwalk_open(const struct f2t_capr *cap, uint64_t sample_type,
				       struct f2t_maps *maps);
void f2t_perfwalk_free(struct f2t_perfwalk *w);

/**
 * f2t_perfwalk_next() - the next record by time, applied to the maps if it
 *			 changes an address space
 *
 * Return: 1, 0 at the end, or a negative errno after reporting (file and
 * offset).
 */
int f2t_perfwalk_next(struct f2t_perfwalk *w, const struct f2t_perf_rec **rec);

/**
 * f2t_perfwalk_peek() - the time of the next record, not applied yet
 *
 * Return: 1 with *@ts set, 0 at the end, or a negative errno after
 * reporting (file and offset).
 */
int f2t_perfwalk_peek(struct f2t_perfwalk *w, uint64_t *ts);

/**
 * f2t_perfwalk_load_proc_maps() - the address spaces as they were when
 *				   recording started (/proc maps in @rec)
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_perfwalk_load_proc_maps(struct f2t_maps *maps, const struct f2t_recording *rec);

#endif
