/* SPDX-License-Identifier: MIT */
/*
 * trace-cmd's trace.dat: the check of its layout before libtracecmd reads
 * it, and the uncompressed copy a big compressed one is read through.
 */
#ifndef F2T_TRACEDAT_H
#define F2T_TRACEDAT_H

#include <stdbool.h>
#include <stdint.h>

struct tracecmd_input;

/**
 * f2t_tracedat_check() - is this a trace.dat libtracecmd can open safely?
 * @path: the file, for messages
 * @fd: open on it
 * @size: its size
 *
 * Version 6 or 7, little-endian; for version 6, every length and every CPU
 * data range inside the file.
 *
 * Return: 0, or -EINVAL after reporting the first problem and its offset.
 */
int f2t_tracedat_check(const char *path, int fd, uint64_t size);

/*
 * Is HANDLE's file (of FILE_SIZE bytes) big and compressed, and this
 * libtracecmd one that reads such files in quadratic time (before 1.5.1)?
 */
bool f2t_tracedat_should_inflate(struct tracecmd_input *handle, uint64_t file_size);

/**
 * f2t_tracedat_inflate() - open an uncompressed copy of a trace.dat
 * @path: the compressed trace.dat
 * @flags: for tracecmd_open()
 *
 * The copy is made by libtracecmd in $TMPDIR (or /tmp) and its name is
 * removed before this returns: it lasts as long as the handle.
 *
 * Return: the copy's handle, or NULL after a warning (read @path itself).
 */
struct tracecmd_input *f2t_tracedat_inflate(const char *path, int flags);

#endif
