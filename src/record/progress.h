/* SPDX-License-Identifier: MIT */
/*
 * One self-updating status line on stderr while recording, only when
 * stderr is a terminal (and not -q); silent otherwise.
 */
#ifndef F2T_PROGRESS_H
#define F2T_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct f2t_progress {
	bool on;
	const char *hint;	/* appended to the line, e.g. how to stop; or NULL */
	uint64_t last_ns;
	bool shown;
};

void f2t_progress_init(struct f2t_progress *p);

/* Redraws at most a few times a second. */
void f2t_progress_update(struct f2t_progress *p, uint64_t now_ns, double elapsed_s,
			 uint64_t bytes);

/* Erases the line so the next message starts clean. */
void f2t_progress_clear(struct f2t_progress *p);

/* "12.3 MB": human-readable size into BUF. */
const char *f2t_human_bytes(uint64_t bytes, char *buf, int len);

#endif
