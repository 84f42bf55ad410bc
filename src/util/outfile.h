/* SPDX-License-Identifier: MIT */
/*
 * Files that appear whole or not at all.  f2t_outfile_open() creates a
 * hidden temporary file, ".NAME.f2t-XXXXXX", in NAME's directory (O_EXCL,
 * O_NOFOLLOW); f2t_outfile_commit() syncs it to disk and renames it over
 * NAME; f2t_outfile_abort() removes it.  A process killed in between
 * leaves at most the hidden file.  Under sudo, all of it is done as the
 * user who ran sudo (util/sudo.h): the file is theirs, and so is the
 * decision whether it may be created or replaced.
 *
 * NAME's symlinks are followed unless one, at any component, lies in a
 * sticky world-writable directory (/tmp) and belongs to neither us nor the
 * directory's owner (util/path.h): then it is refused.  An existing NAME
 * that is not a regular file (a terminal, a pipe, /dev/null) is written
 * through, under the same rule: it cannot be replaced, and need not be.
 */
#ifndef F2T_OUTFILE_H
#define F2T_OUTFILE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

enum {
	F2T_OUTFILE_PRIVATE = 1,	/* mode 0600 (captures), not 0644 minus umask */
	F2T_OUTFILE_UNNAMED = 2,	/* removed at once, read back through its fd */
};

struct f2t_outfile {
	int fd;
	int dirfd;		/* NAME's directory while it is worked in, else -1 */
	int slot;		/* in the table a signal handler empties; -1: none */
	unsigned int flags;
	char *path;		/* the name it takes: absolute, symlinks resolved */
	char *tmp;		/* where it is written until then; NULL: written through */
};

/**
 * f2t_outfile_open() - start writing PATH
 * @f: filled in
 * @path: the file's name
 * @flags: F2T_OUTFILE_*
 *
 * Return: 0 or negative errno; a refused symlink is -ELOOP.  Nothing is
 * printed: the caller names PATH.
 */
int f2t_outfile_open(struct f2t_outfile *f, const char *path, unsigned int flags);

/**
 * f2t_outfile_commit() - sync, close, and give the file its name
 *
 * An F2T_OUTFILE_UNNAMED file is only closed.  On error the temporary file
 * is removed.
 *
 * Return: 0 or negative errno.
 */
int f2t_outfile_commit(struct f2t_outfile *f);

/* Closes and removes the temporary file.  @f may be one never opened. */
void f2t_outfile_abort(struct f2t_outfile *f);

/**
 * f2t_outfile_catch_signals() - remove the temporary files on a stop signal
 *
 * From now on SIGINT, SIGTERM, and SIGHUP and SIGPIPE unless ignored,
 * remove every temporary file still open, then end the process as the
 * signal would have.
 *
 * Return: 0 or negative errno.
 */
int f2t_outfile_catch_signals(void);

/*
 * Blocks the stop signals f2t_outfile_catch_signals() handles, the old mask
 * into @old (restore it with sigprocmask(SIG_SETMASK, old, NULL)): for work
 * that leaves files of its own behind if cut short.
 */
void f2t_outfile_hold_signals(sigset_t *old);

#endif
