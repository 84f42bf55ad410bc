/* SPDX-License-Identifier: MIT */
/*
 * The user who ran us through sudo: the one whose files we write and, when
 * recording, whose identity the command gets back (record/runas.h).
 */
#ifndef F2T_SUDO_H
#define F2T_SUDO_H

#include <sys/types.h>

/**
 * f2t_sudo_user() - who ran sudo, if we are root through sudo
 * @uid: SUDO_UID
 * @gid: SUDO_GID
 *
 * Return: 1 when we run as root with SUDO_UID and SUDO_GID set, 0 when not
 * (not root, or not through sudo), -EINVAL when they are not numbers.
 */
int f2t_sudo_user(uid_t *uid, gid_t *gid);

#endif
