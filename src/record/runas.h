/* SPDX-License-Identifier: MIT */
/*
 * Who the recorded command runs as.  Recording needs root; the command does
 * not: run through sudo, it gets back the identity of the user who ran sudo
 * (uid, gid, supplementary groups, HOME, USER and LOGNAME), as trace-cmd's
 * --user does.  --user NAME picks another user, --as-root keeps root.
 * Everything is looked up before the fork; the child only makes the calls.
 */
#ifndef F2T_RUNAS_H
#define F2T_RUNAS_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/sudo.h"

struct f2t_runas {
	bool change;		/* false: the command runs as we do */
	struct f2t_ident id;
	char **envp;		/* our environment, HOME/USER/LOGNAME the user's */
};

/**
 * f2t_runas_pick() - decide who the command runs as
 * @ra: filled in
 * @user: --user NAME (a name or a number), or NULL
 * @as_root: --as-root
 *
 * Prints its errors (an unknown user, a malformed SUDO_UID).
 *
 * Return: 0 or negative errno.
 */
int f2t_runas_pick(struct f2t_runas *ra, const char *user, bool as_root);

/**
 * f2t_runas_apply() - become that user; in the forked child, before exec
 *
 * Checks that root cannot be regained afterwards.
 *
 * Return: 0 or negative errno.
 */
int f2t_runas_apply(const struct f2t_runas *ra);

void f2t_runas_free(struct f2t_runas *ra);

#endif
