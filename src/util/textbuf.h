/* SPDX-License-Identifier: MIT */
/*
 * A growable byte buffer for text assembled in memory before it becomes one
 * capture record (snapshots of /proc, kallsyms, maps).  Free .p when done.
 */
#ifndef F2T_TEXTBUF_H
#define F2T_TEXTBUF_H

#include <stddef.h>

struct f2t_textbuf {
	char *p;
	size_t len, cap;
};

/* Appends N bytes of S.  Returns 0 or -ENOMEM (the buffer is unchanged). */
int f2t_textbuf_add(struct f2t_textbuf *b, const char *s, size_t n);

#endif
