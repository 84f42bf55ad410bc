/* SPDX-License-Identifier: MIT */
/*
 * Opening a file that someone else may control (a path named by another
 * process's /proc/PID/maps, a perf mmap record, a capture, a /tmp JIT map),
 * for reading: regular files only, decided on what was opened rather than
 * on what a path named a moment before.  A FIFO there cannot block us, a
 * device is never opened (its driver's open() can have effects, a terminal
 * could become ours), a symlink swapped in is not followed where the name
 * must be the file itself.  Every such open in the program goes through
 * f2t_open_reg().
 */
#ifndef F2T_OPENREG_H
#define F2T_OPENREG_H

#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>

/* What a file that is not a regular one is refused with (Linux has no EFTYPE). */
#define F2T_ENOTREG EMEDIUMTYPE

enum {
	/*
	 * The last component must be the file itself, not a symlink: for
	 * names the kernel printed (/proc/PID/maps, mmap records are
	 * d_path()s: never a symlink there).  Not for /proc magic links
	 * (map_files, fd), which must be followed.
	 */
	F2T_OPEN_NOFOLLOW = 1,
};

/**
 * f2t_open_reg() - open a regular file for reading, never anything else
 * @dirfd: AT_FDCWD or a directory @path is relative to
 * @path: the name
 * @how: F2T_OPEN_* flags
 * @st: set to the opened file's status (may be NULL)
 *
 * The name is resolved once, to an O_PATH descriptor, which opens nothing
 * (no driver's open, no FIFO wait); only when fstat() says it is a regular
 * file is that very file opened for reading, through /proc/self/fd, with
 * O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC (O_NOFOLLOW with
 * F2T_OPEN_NOFOLLOW).  Without /proc, the name is opened with those flags
 * and checked the same way on the descriptor.  A refusal is counted once
 * per file (see f2t_open_reg_refused()).
 *
 * Return: a descriptor, F2T_ENOTREG negated for anything but a regular file
 * (a symlink with F2T_OPEN_NOFOLLOW included), or another negative errno.
 */
int f2t_open_reg(int dirfd, const char *path, unsigned int how, struct stat *st);

/**
 * f2t_open_reg_refused() - files refused so far for not being regular
 *
 * Distinct files (device and inode) over the life of the process: the same
 * FIFO met by the build-ids at stop, the symbols and the unwinder counts once.
 *
 * Return: the count.
 */
size_t f2t_open_reg_refused(void);

#endif
