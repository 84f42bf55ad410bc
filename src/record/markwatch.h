/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder's marker trigger (--trigger-marker=TEXT): a second
 * tracefs instance of ours, with no event enabled, into which the kernel
 * copies every top-level trace_marker write (options/copy_trace_marker);
 * its trace_pipe wakes us for each marker and we look for TEXT in it.
 * Markers are the only thing that instance records, so the watch costs a
 * copy of each marker in the kernel and one wakeup per marker, nothing
 * per scheduling event.  (A BPF program on the marker write would need
 * kprobes or fentry, which many kernels refuse; the print event has no
 * tracepoint a BPF program can attach to.)
 */
#ifndef F2T_MARKWATCH_H
#define F2T_MARKWATCH_H

#include <stddef.h>

#include "record/instance.h"

struct f2t_markwatch {
	struct f2t_inst inst;
	int fd;			/* its trace_pipe, non-blocking; -1 when not open */
	const char *text;
	char line[4096];	/* the part of a line read so far */
	size_t used;
};

/**
 * f2t_markwatch_open() - create the instance and start watching for @text
 *
 * Prints one line saying what is wrong when it fails (a kernel that cannot
 * copy trace_marker writes into an instance, no room for another one).
 *
 * Return: 0 or negative errno.
 */
int f2t_markwatch_open(struct f2t_markwatch *mw, const char *text);

/**
 * f2t_markwatch_read() - read what arrived, without blocking
 * @cause: set to the marker that matched and who wrote it, when one did
 *
 * Return: 1 when a marker held the text, 0 when none did, or negative errno.
 */
int f2t_markwatch_read(struct f2t_markwatch *mw, char *cause, size_t len);

/* Closes the pipe only: a forked converter lets go of the instance. */
void f2t_markwatch_close_fd(struct f2t_markwatch *mw);

/* Closes the pipe and removes the instance; one never opened is fine. */
void f2t_markwatch_close(struct f2t_markwatch *mw);

#endif
