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
