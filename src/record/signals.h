/* SPDX-License-Identifier: MIT */
/*
 * SIGINT, SIGTERM and SIGHUP while recording (and SIGUSR1 for a flight
 * recorder's snapshot): the handler only notes the
 * signal and wakes the main loop through a self-pipe; the loop stops,
 * drains and converts.  During conversion a signal removes the temporary
 * output files and then ends us (f2t_outfile_catch_signals()).
 */
#ifndef F2T_SIGNALS_H
#define F2T_SIGNALS_H

#include <stdbool.h>

/**
 * f2t_sig_install() - install the recording handlers, ignore SIGPIPE
 *
 * Return: 0 or negative errno.
 */
int f2t_sig_install(void);

/**
 * f2t_sig_install_snapshot() - SIGUSR1 asks for a snapshot (--flight-recorder)
 *
 * The handler counts the request and wakes the main loop through the same
 * self-pipe; without this, SIGUSR1 keeps its default (it ends the process).
 *
 * Return: 0 or negative errno.
 */
int f2t_sig_install_snapshot(void);

/* Did SIGUSR1 arrive since the last call?  Clears the request. */
bool f2t_sig_take_snapshot(void);

/*
 * Read end of the self-pipe: readable once a stop signal (or a snapshot's
 * SIGUSR1) arrived; a loop that goes on after SIGUSR1 empties it.
 */
int f2t_sig_fd(void);

/* The first stop signal received, or 0. */
int f2t_sig_received(void);

/*
 * Was the first stop signal sent by the kernel, as a terminal's interrupt
 * key and hang-up are (not by kill() or by ourselves)?
 */
bool f2t_sig_from_kernel(void);

/* Restores the default dispositions and closes the self-pipe. */
void f2t_sig_restore(void);

#endif
