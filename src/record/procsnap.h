/* SPDX-License-Identifier: MIT */
/*
 * A snapshot of every thread from /proc, so tasks that existed before the
 * recording started (and never forked, exec'd or renamed during it) still
 * get their process and name; and the walk of /proc's threads it uses.
 */
#ifndef F2T_PROCSNAP_H
#define F2T_PROCSNAP_H

#include <stdint.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "util/textbuf.h"

/* A thread found by f2t_proc_each_thread(): its process's task directory (an fd). */
typedef int (*f2t_proc_thread_fn)(int taskdir, long tgid, long tid, void *ctx);

/**
 * f2t_proc_each_thread() - call @fn for every thread in /proc/TGID/task
 * @tgid: the process, or 0 for every process
 *
 * Return: 0, what @fn returned when not 0 (which stops the walk), or
 * negative errno when /proc cannot be read.
 */
int f2t_proc_each_thread(long tgid, f2t_proc_thread_fn fn, void *ctx);

/**
 * f2t_proc_read_task() - the first @len - 1 bytes of TASKDIR/TID/NAME
 *
 * Return: the bytes read, NUL-terminated in @buf, or -1 when the thread
 * (or the file) is gone.
 */
ssize_t f2t_proc_read_task(int taskdir, long tid, const char *name, char *buf, size_t len);

/**
 * f2t_procsnap_take() - append the snapshot's lines to @b
 *
 * What f2t_procsnap_write() writes, kept in memory: a flight recorder
 * writes the snapshot it took when it was armed and the one at the
 * trigger as one record, the later line of a thread winning.
 *
 * Return: 0 or negative errno (@b keeps what was added).
 */
int f2t_procsnap_take(struct f2t_textbuf *b);

/**
 * f2t_procsnap_write() - write a TASKS record
 * @w: the capture
 * @arg: 0 for the snapshot at start, 1 for the one at stop
 *
 * One "TID TGID COMM\n" line per thread.  Tasks that exit while /proc is
 * being walked are skipped.
 *
 * Return: 0 or negative errno.
 */
int f2t_procsnap_write(struct f2t_capw *w, uint32_t arg);

#endif
