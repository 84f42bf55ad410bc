/* SPDX-License-Identifier: MIT */
/*
 * Messages to the user on stderr, all prefixed "ftrace2trace: ".
 * f2t_err() for what stops the run, f2t_warn() for what the user should know,
 * f2t_info() only when verbose (-v).
 */
#ifndef F2T_LOG_H
#define F2T_LOG_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

extern bool f2t_verbose;
extern bool f2t_quiet;

/* Where messages go: stderr unless set (tests read them from a memstream). */
void f2t_log_set_output(FILE *f);

void f2t_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * How many errors were said so far: code that reports a failure passed up
 * from below (out of memory, from any depth) says it only when nothing
 * below did, so that one failure is one line.
 */
unsigned long f2t_errors(void);

/*
 * Out of memory or of descriptors: a resource of the whole run, never a
 * feature this machine lacks.  What falls back with a warning when a
 * feature is missing fails instead on these: no partial run with exit 0.
 */
static inline bool f2t_resource_error(int err)
{
	return err == -ENOMEM || err == -EMFILE || err == -ENFILE;
}
void f2t_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void f2t_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
