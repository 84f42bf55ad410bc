/* SPDX-License-Identifier: MIT */
/*
 * -p: the processes whose end ends the recording.  Watched with pidfds
 * (poll()able) where the kernel has them, else checked with kill(pid, 0).
 */
#ifndef F2T_PIDWATCH_H
#define F2T_PIDWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct f2t_pidwatch {
	pid_t *pids;
	int *fds;		/* pidfd per pid, -1 when gone or unsupported */
	bool *gone;
	size_t n;
};

/**
 * f2t_pidwatch_open() - start watching PIDS
 *
 * Return: 0, -ESRCH (a pid does not exist; message printed) or -ENOMEM.
 */
int f2t_pidwatch_open(struct f2t_pidwatch *w, const pid_t *pids, size_t n);

/**
 * f2t_pidwatch_alive() - how many watched processes still run
 */
size_t f2t_pidwatch_alive(struct f2t_pidwatch *w);

void f2t_pidwatch_close(struct f2t_pidwatch *w);

#endif
