/* SPDX-License-Identifier: MIT */
/*
 * The user who ran us through sudo, and acting as them.  Root does only
 * what recording needs; every file is opened as this user:
 *  - the subcommands that record nothing become the user for good before
 *    they open anything (f2t_sudo_drop());
 *  - record opens its outputs and capture under the user's file-system
 *    identity (util/outfile.c calls f2t_sudo_files_begin()/_end() around
 *    every open, rename and unlink), and becomes the user before it
 *    converts what it recorded;
 *  - the command record runs gets the user's identity (record/runas.h).
 * Not under sudo (not root, or no SUDO_UID), all of this does nothing.
 */
#ifndef F2T_SUDO_H
#define F2T_SUDO_H

#include <pwd.h>
#include <sys/types.h>

/* A user as a process takes it on: ids, supplementary groups, name. */
struct f2t_ident {
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	int ngroups;
	char *name;
};

/**
 * f2t_ident_fill() - the identity of the user PW, with GID as primary group
 * @id: filled in; free with f2t_ident_free()
 * @pw: the user
 * @gid: their primary group (sudo's SUDO_GID, or pw_gid)
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_ident_fill(struct f2t_ident *id, const struct passwd *pw, gid_t gid);

/**
 * f2t_ident_become() - take on ID for good: groups, gid, uid
 *
 * Checks that root cannot be regained afterwards.
 *
 * Return: 0 or negative errno.
 */
int f2t_ident_become(const struct f2t_ident *id);

void f2t_ident_free(struct f2t_ident *id);

/**
 * f2t_sudo_init() - find out who ran us through sudo, once, at start
 *
 * Reads SUDO_UID and SUDO_GID when we run as root.  Prints its errors:
 * ids that are not numbers, a SUDO_UID that names no user.
 *
 * Return: 1 under sudo, 0 not, negative errno on error.
 */
int f2t_sudo_init(void);

/* The user who ran sudo (f2t_sudo_init() said 1), or NULL. */
const struct f2t_ident *f2t_sudo_ident(void);

/* Whose files we write and read: the sudo user's uid, or our own. */
uid_t f2t_sudo_files_uid(void);

/**
 * f2t_sudo_drop() - become the user who ran sudo, for good
 *
 * Prints its error.  Does nothing when not under sudo.
 *
 * Return: 0 or negative errno.
 */
int f2t_sudo_drop(void);

/**
 * f2t_sudo_files_begin() - open files as the user who ran sudo, until _end()
 *
 * Sets the file-system uid and gid and the supplementary groups to the
 * user's, so that the kernel checks each path as it would for them, and
 * files created belong to them.  Nests; does nothing when not under sudo
 * or after f2t_sudo_drop().  The process must have one thread.
 *
 * Return: 0 or -EPERM.
 */
int f2t_sudo_files_begin(void);

/* Back to root's identity for files, at the outermost _end(). */
void f2t_sudo_files_end(void);

#endif
