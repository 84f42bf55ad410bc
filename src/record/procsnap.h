/* SPDX-License-Identifier: MIT */
/*
 * A snapshot of every thread from /proc, so tasks that existed before the
 * recording started (and never forked, exec'd or renamed during it) still
 * get their process and name.
 */
#ifndef F2T_PROCSNAP_H
#define F2T_PROCSNAP_H

#include <stdint.h>

#include "capture/capture.h"
#include "util/textbuf.h"

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
