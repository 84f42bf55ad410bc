/* SPDX-License-Identifier: MIT */
/*
 * `ftrace2trace record`: the whole recording run, from checks to conversion.
 * The CLI fills struct f2t_record_opts; f2t_record_run() does the rest and
 * returns the process exit status.
 */
#ifndef F2T_RECORD_H
#define F2T_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pipeline/convert.h"
#include "record/functrace.h"

/* Default per-CPU ring-buffer size; see f2t_inst_pick_buffer_kb(). */
#define F2T_RECORD_DEFAULT_BUFFER_KB 4096UL

struct f2t_record_opts {
	struct f2t_convert_opts conv;	/* outputs, already resolved */
	char **command;			/* NULL-terminated, or NULL */
	bool all;			/* -a */
	double duration;		/* -d seconds; 0 = until stopped */
	pid_t *pids;			/* -p */
	size_t npids;
	const char **events;		/* -e specs, "SYSTEM" or "SYSTEM:EVENT" */
	size_t nevents;
	unsigned long buffer_kb;	/* -b; 0 = default */
	const char *keep_capture;	/* -k FILE, or NULL */
	const char *user;		/* --user NAME: the command runs as NAME */
	bool as_root;			/* --as-root: the command stays root under sudo */
	bool report;			/* --report: print `ftrace2trace report` at the end */
	bool report_all;		/* --all-processes: not only the command's */
	bool report_wide;		/* --wide: every column */
	const char *open;		/* --open: this output, served to Perfetto UI at the end */
	struct f2t_functrace_opts func;	/* --function, --function-graph */
	/* CPU sampling */
	unsigned int sample_freq;	/* -F; 0 = off */
	bool sample_freq_given;		/* -F or --no-sample: failure is an error */
	bool sample_all;		/* --sample-all: every task, whatever COMMAND/-p */
	bool dwarf;			/* --call-graph dwarf */
	unsigned int stack_bytes;	/* --call-graph dwarf,SIZE */
	/* Off-CPU episodes through BPF (record/offcpu.h) */
	bool off_cpu;			/* --off-cpu */
	uint64_t off_cpu_min_ns;	/* --off-cpu-min, in ns */
	/* Flight recorder (record/flight.h) */
	double flight_secs;		/* --flight-recorder[=SECONDS]; 0 = off */
	unsigned int after_ms;		/* --after */
	unsigned int max_snapshots;	/* --max-snapshots */
	const char *trigger_marker;	/* --trigger-marker TEXT, or NULL */
	uint64_t trigger_latency_ns;	/* --trigger-latency, in ns; 0 = none */
};

/* Samples per second per CPU unless -F says otherwise. */
#define F2T_RECORD_DEFAULT_FREQ 999u
/* Off-CPU episodes shorter than this are not kept unless --off-cpu-min says. */
#define F2T_RECORD_DEFAULT_OFFCPU_MIN_US 1u
/* The flight recorder's window, and how long it goes on after a trigger. */
#define F2T_RECORD_DEFAULT_FLIGHT_SECS 10.0
#define F2T_RECORD_DEFAULT_AFTER_MS 100u
/* User stack bytes copied per sample with --call-graph dwarf. */
#define F2T_RECORD_DEFAULT_STACK 8192u

/**
 * f2t_record_run() - record, then convert into every output
 * @o: the parsed options
 *
 * Tracing is always system-wide; the command or -p only decide when to
 * stop.  Under sudo the command runs as the user who ran sudo (see
 * record/runas.h).  Every exit path removes our tracefs instance.
 *
 * Return: the exit status: the command's when one ran, else 0 on success,
 * 1 on error, 127 when the command cannot be found, 128 + the signal for a
 * stop signal before tracing started.
 */
int f2t_record_run(const struct f2t_record_opts *o);

#endif
