/* SPDX-License-Identifier: MIT */
/*
 * Paths walked with the rule of fs.protected_symlinks and
 * fs.protected_fifos, whatever those sysctls say: a symlink, FIFO or device
 * in a sticky world-writable directory (/tmp) is gone through only when it
 * belongs to the user we act for (util/sudo.h) or to the directory's owner.
 * The kernel checks a path's last component only; here every component is
 * checked, so that a directory link planted by another user (/tmp/d ->
 * /etc) cannot send a file elsewhere.
 */
#ifndef F2T_PATH_H
#define F2T_PATH_H

#include <stdbool.h>
#include <sys/stat.h>

/**
 * f2t_path_trusted() - may we go through the entry PATH?
 * @path: a path whose directory part holds no symlink
 * @st: lstat() of PATH
 *
 * Return: false for a symlink or a file that is not regular, in a sticky
 * world-writable directory, owned by neither us nor the directory's owner.
 */
bool f2t_path_trusted(const char *path, const struct stat *st);

/* Says that PATH (lstat ST) was not trusted, and why: a warning. */
void f2t_path_refused(const char *path, const struct stat *st);

/**
 * f2t_path_resolve() - PATH, absolute, with its symlinks resolved
 * @path: any path
 *
 * Each symlink met, at any component, is followed only when
 * f2t_path_trusted() says so.  A last component that does not exist is
 * kept as it is (a file to create).  A link of /proc that leads to no path
 * (pipe:[N], a deleted file) ends the walk: the rest is left to the kernel.
 *
 * Return: a malloc'd path, or NULL + errno (EACCES for a link refused,
 * ELOOP, ENOENT, ...).
 */
char *f2t_path_resolve(const char *path);

/**
 * f2t_path_open() - open(PATH, FLAGS) for reading, its links checked
 * @path: any path
 * @flags: open(2) flags; O_CLOEXEC and O_NOCTTY are added
 *
 * PATH is resolved by f2t_path_resolve() and what it names is opened with
 * no symlink followed on the way, so that none swapped in since counts
 * (a /proc link of a pipe or a deleted file is the kernel's to follow).
 *
 * Return: a file descriptor, or a negative errno (-EACCES for a link refused).
 */
int f2t_path_open(const char *path, int flags);

#endif
