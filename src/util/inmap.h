/* SPDX-License-Identifier: MIT */
/*
 * Input files mapped read-only, safe against the file being cut short while
 * it is read.  A page of a MAP_PRIVATE mapping that lies past the file's end
 * when touched raises SIGBUS, which would kill the run: another process may
 * truncate an input at any time.  The SIGBUS handler here puts zero-filled
 * memory where the lost pages were, so the reading code goes on (it reads
 * damaged data safely anyway), and marks the mapping; f2t_inmap_check(),
 * asked once per event, turns the mark into an error naming the file.
 */
#ifndef F2T_INMAP_H
#define F2T_INMAP_H

#include <stddef.h>

struct f2t_inmap {
	const unsigned char *data;
	size_t len;
	int slot;		/* in the table the handler reads; -1: none */
};

/**
 * f2t_inmap_arm() - install the SIGBUS handler now, before f2t_inmap_open()
 *
 * For a caller that sets a SIGBUS handler of its own around an open, then
 * puts back what it found: it must find this one.
 *
 * Return: 0, or a negative errno.
 */
int f2t_inmap_arm(void);

/**
 * f2t_inmap_open() - map @len bytes of @fd, read-only, guarded
 * @m: filled in; all zeros with slot -1 on failure
 * @fd: the file (a regular file; the caller may close it afterwards)
 * @len: its size when opened (above 0)
 * @path: its name for the message f2t_inmap_check() prints; must outlive @m
 *
 * Return: 0, or a negative errno (-EMFILE when too many are open).
 */
int f2t_inmap_open(struct f2t_inmap *m, int fd, size_t len, const char *path);

/** f2t_inmap_close() - unmap @m; a zeroed or failed one is fine */
void f2t_inmap_close(struct f2t_inmap *m);

/* Set by the handler when any guarded mapping lost pages; stays set. */
extern volatile int f2t_inmap_cut;

/* f2t_inmap_check()'s slow path: the report, -EIO. */
int f2t_inmap_report(void);

/**
 * f2t_inmap_check() - whether every guarded input is still whole
 *
 * Reports each input that lost pages since its mapping was made ("FILE:
 * changed while being read"), once.
 *
 * Return: 0, or -EIO after the report.
 */
static inline int f2t_inmap_check(void)
{
	return __builtin_expect(f2t_inmap_cut, 0) ? f2t_inmap_report() : 0;
}

#endif
