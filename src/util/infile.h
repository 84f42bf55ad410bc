/* SPDX-License-Identifier: MIT */
/*
 * An input file as something that can be mapped and read twice: a regular
 * file as it is, anything else that streams (a pipe, a FIFO, a socket on
 * standard input, a file that says it has no size, as tracefs's trace and
 * /proc's do) read to its end into an unnamed temporary file first.
 * Devices and directories are refused at once, and so is a FIFO that no
 * program writes: opening one would wait for a writer forever.
 */
#ifndef F2T_INFILE_H
#define F2T_INFILE_H

#include <stdbool.h>
#include <sys/stat.h>

/**
 * f2t_infile_unchanged() - whether a file's stat @now is still @then's
 * @then: what fstat() said when reading began
 * @now: what it says now
 *
 * The same inode, size, modification and change times: a file cut short,
 * rewritten in place (even with its mtime put back) or replaced differs.
 */
static inline bool f2t_infile_unchanged(const struct stat *then, const struct stat *now)
{
	return now->st_dev == then->st_dev && now->st_ino == then->st_ino &&
	       now->st_size == then->st_size &&
	       now->st_mtim.tv_sec == then->st_mtim.tv_sec &&
	       now->st_mtim.tv_nsec == then->st_mtim.tv_nsec &&
	       now->st_ctim.tv_sec == then->st_ctim.tv_sec &&
	       now->st_ctim.tv_nsec == then->st_ctim.tv_nsec;
}

/* How long a FIFO may wait for its writer before it is called writerless. */
#define F2T_INFILE_FIFO_WAIT_MS 1000

/**
 * f2t_infile_open() - open an input as a regular file
 * @path: the file, or "-" for standard input
 *
 * Return: a descriptor of a regular file (close it), or a negative errno
 * after an error naming @path.
 */
int f2t_infile_open(const char *path);

#endif
