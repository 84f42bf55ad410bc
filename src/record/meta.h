/* SPDX-License-Identifier: MIT */
/*
 * The capture's facts about the recording: META (host, kernel, clock,
 * times...), the ring-buffer page layout, printk formats, and per-CPU ring
 * statistics (which also give the count of lost events).
 */
#ifndef F2T_META_H
#define F2T_META_H

#include <stdbool.h>
#include <stdint.h>
#include <tracefs.h>

#include "capture/capture.h"

/* A clock sync marker the recorder wrote, and the clocks read just before it. */
struct f2t_meta_sync {
	char id[64];		/* its sync id; "" when none was written */
	uint64_t mono_ns, realtime_ns, boottime_ns;
};

struct f2t_meta {
	const char *cmdline;	/* the recorded command, or "-a" */
	const char *pids;	/* the command's process, or -p's: "PID[,PID...]"; NULL: -a */
	const char *clock;
	uint64_t subbuf_size;
	uint32_t ncpus;
	uint64_t start_ns;	/* CLOCK_MONOTONIC right after tracing on */
	uint64_t start_realtime_ns;
	uint64_t start_boottime_ns;
	uint64_t stop_ns;	/* CLOCK_MONOTONIC right before tracing off */
	struct f2t_meta_sync sync_start, sync_end;	/* record/syncmark.c */
	/*
	 * A flight recorder's snapshot: where its window begins (the ring
	 * buffers overwrote what came before, which is no loss) and what
	 * triggered it.  0 and NULL otherwise.
	 */
	uint64_t flight_from_ns;
	const char *flight_trigger;
	/*
	 * A later snapshot's: when its MAPS records were read from /proc, so
	 * the perf records from before (the names, forks and exits kept from
	 * earlier windows) are already in them.  0 otherwise.
	 */
	uint64_t flight_maps_ns;
};

/* The three clocks, read back to back right after tracing went on. */
void f2t_meta_mark_start(struct f2t_meta *m);

/* CLOCK_MONOTONIC now, in ns. */
uint64_t f2t_meta_now(void);

/**
 * f2t_meta_write() - the META record with every key
 *
 * Return: 0 or negative errno.
 */
int f2t_meta_write(struct f2t_capw *w, const struct f2t_meta *m);

/**
 * f2t_meta_write_static() - HEADER_PAGE and PRINTK_FORMATS
 *
 * Return: 0 or negative errno; a missing header_page is an error (nothing
 * could be decoded), missing printk_formats only a note.
 */
int f2t_meta_write_static(struct f2t_capw *w);

/**
 * f2t_meta_write_cpu_stats() - per_cpu/cpuN/stats of every CPU as CPU_STATS
 * @overwrites: the rings overwrote their oldest data on purpose (a flight
 *              recorder): the overrun is the past given up, not a loss
 * @lost: set to the events the kernel says it lost (overrun unless
 *        @overwrites, commit overrun, dropped events), summed over CPUs
 *
 * Return: 0 or negative errno.
 */
int f2t_meta_write_cpu_stats(struct f2t_capw *w, struct tracefs_instance *ti,
			     int ncpus, bool overwrites, uint64_t *lost);

/* The number after "KEY:" in a per_cpu/cpuN/stats TEXT; 0 when absent. */
uint64_t f2t_meta_stat_field(const char *text, const char *key);

/**
 * f2t_meta_join_cmdline() - ARGV as one line, quoted where a shell needs it
 *
 * Return: a malloc'd string, NULL on ENOMEM.
 */
char *f2t_meta_join_cmdline(char *const argv[]);

#endif
