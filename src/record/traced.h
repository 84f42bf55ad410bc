/* SPDX-License-Identifier: MIT */
/*
 * The processes a recording is about, each with the user it ran as: the
 * command or the -p processes, and every process they fork (the sampler's
 * FORK records), or every process (-a, --sample-all).  JIT symbol maps are
 * read for these only, and only when their owner is that user.
 */
#ifndef F2T_TRACED_H
#define F2T_TRACED_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct f2t_traced {
	bool all;			/* every process is traced */
	struct f2t_traced_proc {
		pid_t pid;
		uid_t uid;
	} *v;				/* sorted by pid */
	size_t n, cap;
};

/* Adds PID, run by UID; a PID already there keeps its user.  0 or -ENOMEM. */
int f2t_traced_add(struct f2t_traced *t, pid_t pid, uid_t uid);

/* CHILD, forked by PARENT: traced, as the same user, if PARENT is.  0 or -ENOMEM. */
int f2t_traced_fork(struct f2t_traced *t, pid_t child, pid_t parent);

/* Is PID traced?  Sets *UID to its user when known (not for t->all). */
bool f2t_traced_find(const struct f2t_traced *t, pid_t pid, uid_t *uid);

/**
 * f2t_proc_uids() - the real, effective, saved and file-system uids of PID
 *
 * Return: 0, or negative errno (-ENOENT: the process is gone).
 */
int f2t_proc_uids(pid_t pid, uid_t uids[4]);

void f2t_traced_free(struct f2t_traced *t);

#endif
