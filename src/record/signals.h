/* SPDX-License-Identifier: MIT */
/*
 * SIGINT, SIGTERM and SIGHUP while recording: the handler only counts and
 * wakes the main loop through a self-pipe; the loop stops, drains and
 * converts.  During conversion a signal removes the files being written
 * (partial outputs, the temporary capture) and then kills us as usual.
 */
#ifndef F2T_SIGNALS_H
#define F2T_SIGNALS_H

#include <stddef.h>

/**
 * f2t_sig_install() - install the recording handlers, ignore SIGPIPE
 *
 * Return: 0 or negative errno.
 */
int f2t_sig_install(void);

/* Read end of the self-pipe: readable once a stop signal arrived. */
int f2t_sig_fd(void);

/* Stop signals received so far. */
int f2t_sig_count(void);

/**
 * f2t_sig_converting() - from now on a signal removes @paths and kills us
 * @paths: files to unlink() from the handler (copied; at most 16)
 * @n: number of paths
 */
void f2t_sig_converting(const char *const *paths, size_t n);

/* Restores the default dispositions and closes the self-pipe. */
void f2t_sig_restore(void);

#endif
