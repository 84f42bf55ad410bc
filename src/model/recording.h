/* SPDX-License-Identifier: MIT */
/*
 * What is known about a recording besides its events: where and when it was
 * made, the threads alive at its start and end, and the side data that
 * names addresses (kallsyms, printk formats, build-ids, JIT maps, process
 * mappings).  An input (a capture, a trace.dat, ftrace text) fills it in when it is
 * opened; the symbolizer, the event decoders and every writer read it, so
 * none of them needs to know the input's file layout.
 *
 * Texts point into the input's memory and live as long as the input.
 */
#ifndef F2T_RECORDING_H
#define F2T_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/tasks.h"

/*
 * A clock sync marker the recorder wrote itself (at start, at stop), with
 * CLOCK_MONOTONIC, CLOCK_REALTIME and CLOCK_BOOTTIME read back to back just
 * before the write: the marker's kernel timestamp pairs the trace clock
 * with the other two.
 */
struct f2t_sync_point {
	const char *id;		/* "trace_event_clock_sync: name=ID"; NULL or "" if none */
	uint64_t mono_ns, realtime_ns, boottime_ns;
};

/* Facts about the recording, from the input's metadata. */
struct f2t_trace_info {
	const char *host;
	const char *kernel;	/* uname -r */
	/* uname -v, /proc/sys/kernel/random/boot_id, the CPU's model name:
	 * NULL or "" where the input does not say (older captures). */
	const char *kernel_version;
	const char *boot_id;
	const char *cpu_model;
	const char *machine;	/* uname -m; "" in captures from before it was kept */
	const char *cmdline;	/* what was recorded: the command, or "-a" */
	/* Whose recording it was: the command's process, or the -p ones, as
	 * "PID[,PID...]"; NULL: -a, or the input does not say. */
	const char *pids;
	const char *clock;	/* ftrace trace_clock, "mono" normally */
	uint64_t start_ns;	/* trace clock at start / stop */
	uint64_t stop_ns;
	uint64_t realtime_ns;	/* CLOCK_REALTIME at start_ns, 0 if unknown */
	uint64_t boottime_ns;	/* CLOCK_BOOTTIME at start_ns, 0 if unknown */
	int32_t tz_offset_min;	/* the recording host's time zone, minutes east of UTC */
	bool tz_known;
	uint32_t ncpus;
	uint32_t page_size;	/* bytes, 0 if unknown */
	const char *recorder;	/* "ftrace2trace VERSION" */
	struct f2t_sync_point sync_start, sync_end;
};

/* A text that belongs to one process (its JIT map, its /proc maps). */
struct f2t_pid_text {
	int32_t pid;
	const char *text;
	size_t len;
};

struct f2t_text {
	const char *s;		/* NULL: the input has none */
	size_t len;
};

/* One CPU's ring-buffer counters at the end (tracefs per_cpu/cpuN/stats). */
struct f2t_cpu_stats {
	uint32_t cpu;
	uint64_t entries, overrun, commit_overrun, bytes, dropped, read;
};

/* How CPU samples were taken, when they were (event NULL: not sampled). */
struct f2t_sampling {
	const char *event;	/* "cpu-clock", as perf names it */
	uint32_t type;		/* perf_event_attr type and config */
	uint64_t config;
	uint32_t freq;		/* asked-for samples per second per CPU */
	/* Whose samples were kept: "all", "command" or "pids" (NULL: not said). */
	const char *scope;
};

struct f2t_recording {
	const char *path;		/* the input file, for messages */
	struct f2t_trace_info info;
	/*
	 * The threads alive when recording started, as the input seeded it
	 * when opened; from the first event on it is the tracker's
	 * (model/tracker.h), which keeps it up to date as events pass, so it
	 * is also the names and processes as of the current event.  Everyone
	 * else reads it (const struct f2t_tasks *).
	 */
	struct f2t_tasks *tasks;
	/* The threads alive at the end: what a task created meanwhile was. */
	struct f2t_tasks *tasks_end;
	/* What the kernel's own counters said about our buffers at the end. */
	uint64_t kernel_overrun, kernel_dropped, kernel_read;
	/* ... CPU by CPU. */
	const struct f2t_cpu_stats *cpu_stats;
	size_t ncpu_stats;
	struct f2t_sampling sampling;

	struct f2t_text kallsyms;	/* /proc/kallsyms */
	/*
	 * Or, from an input that reads them only when asked (a trace.dat's are
	 * megabytes to inflate): read_kallsyms(kallsyms_ctx), the same text at
	 * every call.  See f2t_recording_kallsyms().
	 */
	struct f2t_text (*read_kallsyms)(void *ctx);
	void *kallsyms_ctx;
	struct f2t_text printk_formats;	/* tracefs printk_formats */
	struct f2t_text build_ids;	/* "HEXBUILDID PATH\n" lines */
	const char *kernel_build_id;	/* hex, or NULL */
	const struct f2t_pid_text *jit_maps;	/* /tmp/perf-PID.map files */
	size_t njit_maps;
	const struct f2t_pid_text *proc_maps;	/* /proc/PID/maps at start */
	size_t nproc_maps;
};

/* The recording's /proc/kallsyms text (s NULL: none), read now if the input reads it late. */
struct f2t_text f2t_recording_kallsyms(const struct f2t_recording *rec);

/* Room for f2t_recording_sync_id()'s id. */
#define F2T_SYNC_ID_MAX 64

/**
 * f2t_recording_sync_id() - the id of the clock sync point an output writes
 *			     for itself (JSON's "clock_sync" event)
 * @info: the recording
 * @buf: at least F2T_SYNC_ID_MAX bytes
 *
 * Unique per recording: two files merged into one must not carry the same
 * id twice, which Trace Viewer rejects.  Only [A-Za-z0-9_-], which is what
 * its marker-line pattern accepts.
 */
void f2t_recording_sync_id(const struct f2t_trace_info *info, char *buf);

#endif
