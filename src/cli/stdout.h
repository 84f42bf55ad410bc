/* SPDX-License-Identifier: MIT */
/*
 * Standard output's errors.  What a subcommand prints there (a report, a
 * dump, --help) sits in stdio's buffer until exit, where an error would go
 * unseen: each run ends through f2t_stdout_finish(), which flushes and
 * turns a failed write into exit status 1 and one line naming the file.
 */
#ifndef F2T_STDOUT_H
#define F2T_STDOUT_H

#include <stddef.h>

/**
 * f2t_stdout_name() - what standard output is, for messages
 * @buf: filled with the file's path, or "standard output" when it has none
 *	 (a pipe, a socket)
 * @len: @buf's size
 */
void f2t_stdout_name(char *buf, size_t len);

/**
 * f2t_stdout_begin() - give standard output, when it is not a terminal, a
 *			buffer that holds any help text or short answer whole
 *
 * A write that fails while a subcommand prints leaves only ferror(): its
 * errno is gone by the end.  Written once, at f2t_stdout_finish(), the
 * error is known and said ("No space left on device").  Call it first.
 */
void f2t_stdout_begin(void);

/**
 * f2t_stdout_finish() - flush standard output and check it
 * @status: the subcommand's exit status
 *
 * Return: @status, or 1 when a write to standard output failed and @status
 * was 0 (reported, unless the reader went away: EPIPE).
 */
int f2t_stdout_finish(int status);

#endif
