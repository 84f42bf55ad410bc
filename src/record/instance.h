/* SPDX-License-Identifier: MIT */
/*
 * Our own tracefs instance: access checks, stale-instance cleanup, creation
 * and configuration (clock, buffer, marker copying), start/stop, removal.
 * Never touches the top-level buffer's settings.
 */
#ifndef F2T_INSTANCE_H
#define F2T_INSTANCE_H

#include <stdbool.h>
#include <tracefs.h>

#define F2T_INST_PREFIX "ftrace2trace-"

struct f2t_inst {
	struct tracefs_instance *ti;
	char name[64];
	char clock[32];		/* trace_clock actually in use */
	unsigned long buffer_kb;	/* per CPU, as the kernel reports it */
	int subbuf_size;	/* bytes per trace_pipe_raw read */
	int ncpus;		/* per_cpu/cpuN directories: possible CPUs */
	int lock_fd;		/* the instance's directory, flock()ed: we are alive */
};

/**
 * f2t_inst_check_access() - can this process record at all?
 *
 * Checks for root or CAP_SYS_ADMIN, then finds tracefs, mounting it at
 * /sys/kernel/tracing when needed (libtracefs does the mount).  Prints one
 * line saying what is missing.
 *
 * Return: 0, -EPERM or -ENOENT.
 */
int f2t_inst_check_access(void);

/**
 * f2t_inst_remove_stale() - remove instances left by killed runs
 *
 * An instance named ftrace2trace-PID[-N] whose directory's lock can be
 * taken has no recorder (each holds its own until the instance is gone;
 * the kernel drops it when the recorder dies): it was left by a run killed
 * with SIGKILL.  One whose lock is held is a running recording's, whatever
 * its recorder's name or PID namespace: left alone, with one warning.
 *
 * Return: number of instances removed.
 */
int f2t_inst_remove_stale(void);

/**
 * f2t_inst_pick_buffer_kb() - default per-CPU buffer size
 * @ncpus: CPUs that get a buffer
 *
 * F2T_RECORD_DEFAULT_BUFFER_KB, lowered so all buffers together take at
 * most an eighth of MemAvailable (never below 1024 KB).
 */
unsigned long f2t_inst_pick_buffer_kb(int ncpus);

/**
 * f2t_inst_create() - create and configure ftrace2trace-<our pid>
 * @in: filled in
 * @buffer_kb: per-CPU buffer size, 0 for the default
 *
 * The instance is new (a live one of that name, a recorder with our pid in
 * another PID namespace, makes it ftrace2trace-PID-2, and so on) and
 * locked before anyone can see it unlocked.
 * Tracing is left off.  Sets trace_clock (mono, else boot, else the
 * kernel's default, with a warning), options/copy_trace_marker,
 * buffer_size_kb and buffer_percent.
 *
 * Return: 0 or negative errno (message printed).
 */
int f2t_inst_create(struct f2t_inst *in, unsigned long buffer_kb);

/** f2t_inst_tracing() - turn recording in our instance on or off. */
int f2t_inst_tracing(struct f2t_inst *in, bool on);

/**
 * f2t_inst_resize() - another per-CPU ring size, tracing on or off
 *
 * A ring that grows keeps what it holds (a flight recorder grows its rings
 * once it has seen the event rate).  Updates @in->buffer_kb.
 *
 * Return: 0 or negative errno.
 */
int f2t_inst_resize(struct f2t_inst *in, unsigned long kb);

/**
 * f2t_inst_destroy() - turn tracing off, remove the instance, drop its lock
 * @in: may be one that was never created
 *
 * Every fd opened inside the instance must be closed first, or the kernel
 * refuses the removal (EBUSY); such an instance, unlocked, is the next
 * run's to remove.
 */
void f2t_inst_destroy(struct f2t_inst *in);

#endif
