/* SPDX-License-Identifier: MIT */
/* trace-cmd's trace.dat: the check of its layout before libtracecmd reads it. */
#ifndef F2T_TRACEDAT_H
#define F2T_TRACEDAT_H

#include <stdint.h>

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

#endif
