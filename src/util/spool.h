/* SPDX-License-Identifier: MIT */
/*
 * A spool: an anonymous temporary file that a writer streams one part of its
 * output into while it writes another part directly, then copies in at the
 * end.  Memory stays bounded whatever the size of that part.
 */
#ifndef F2T_SPOOL_H
#define F2T_SPOOL_H

#include "util/out.h"

struct f2t_spool {
	int fd;
	struct f2t_out *out;	/* write the spooled part here */
};

/**
 * f2t_spool_open() - create an unlinked temporary file
 * @s: the spool
 * @near: the output the spool's bytes end up in: when it is a named file,
 *	the spool goes in its directory (the same file system, not a
 *	RAM-backed /tmp); else (standard output, a descriptor, NULL) in
 *	$TMPDIR or /tmp, never the current directory
 *
 * Return: 0 or negative errno.
 */
int f2t_spool_open(struct f2t_spool *s, const struct f2t_out *near);

/** f2t_tmpdir() - where temporary files go: $TMPDIR, or /tmp */
const char *f2t_tmpdir(void);

/**
 * f2t_tmpfile() - an unnamed temporary file in f2t_tmpdir(), read-write
 *
 * Return: its descriptor, or a negative errno.
 */
int f2t_tmpfile(void);

/**
 * f2t_spool_copy() - append everything spooled so far to DST
 * @s: the spool
 * @dst: where to copy it; read straight into its buffer, no bounce buffer
 *
 * Return: 0 or negative errno (a spool write error included).
 */
int f2t_spool_copy(struct f2t_spool *s, struct f2t_out *dst);

/**
 * f2t_spool_close() - free the spool; the file goes with its descriptor
 * @s: the spool (may be all zeros)
 */
void f2t_spool_close(struct f2t_spool *s);

#endif
