/* SPDX-License-Identifier: MIT */
/*
 * Human-readable FXT: one line per record (`ftrace2trace dump`), or counts
 * and bytes per record kind (`dump --stats`).
 */
#ifndef F2T_FXT_DUMP_H
#define F2T_FXT_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fxt/reader.h"

struct fxt_stats {
	uint64_t count[FXT_K_COUNT];
	uint64_t bytes[FXT_K_COUNT];
};

/**
 * fxt_print_record() - one line for @rec: offset, kind, fields, arguments
 * @f: where to
 * @rec: a record from fxt_reader_next()
 */
void fxt_print_record(FILE *f, const struct fxt_record *rec);

/**
 * fxt_print_stats() - "KIND COUNT BYTES" for every kind, then "total COUNT BYTES"
 * @f: where to
 * @st: the counts
 */
void fxt_print_stats(FILE *f, const struct fxt_stats *st);

/**
 * fxt_dump() - reads a whole FXT buffer, printing records or statistics
 * @f: where the output goes
 * @name: the file's name, for the error message
 * @data: its bytes
 * @len: its size
 * @stats: print only fxt_print_stats() at the end instead of every record
 *
 * A malformed file is reported on stderr as "ftrace2trace: error: NAME:
 * offset N: reason", after the records before it were printed (statistics
 * are not printed then).
 *
 * Return: 0, -EINVAL for a malformed file, -ENOMEM, or the negative errno
 * of a write to @f that failed (not reported: the caller knows what @f is).
 */
int fxt_dump(FILE *f, const char *name, const void *data, size_t len, bool stats);

#endif
