/* SPDX-License-Identifier: MIT */
/*
 * A flight recorder's window of what the perf and BPF rings gave (record
 * --flight-recorder with samples or --off-cpu).  Those rings cannot keep
 * only their newest data for us: a BPF ring buffer never overwrites, and a
 * perf ring that overwrites gives up the address-space records the samples
 * are named with.  So they are read as `record` reads them, and what each
 * read gave is held here in memory, a chunk per read with the time of its
 * newest entry, instead of written to disk.  Chunks that end before the
 * window are let go; the entries every later snapshot still needs (perf's
 * mappings, forks, names) are first taken out of them by a keep function
 * and held as the history of their CPU.  A snapshot writes each CPU's
 * history, then its chunks, as capture records of one type.
 */
#ifndef F2T_WINDOW_H
#define F2T_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

/*
 * Keeps, in place, what of LEN bytes at DATA later snapshots need, moved
 * to the front; returns how many bytes that is (0: nothing).
 */
typedef size_t (*f2t_window_keep_fn)(unsigned char *data, size_t len);

struct f2t_window_chunk {
	uint32_t arg;		/* the capture record's arg: the CPU */
	uint64_t last_ns;	/* its newest entry's time, CLOCK_MONOTONIC */
	size_t len;
	unsigned char *data;
};

struct f2t_window_hist {
	uint32_t arg;
	unsigned char *p;
	size_t len, cap;
};

struct f2t_window {
	uint32_t type;			/* the capture records it becomes */
	f2t_window_keep_fn keep;	/* NULL: nothing is kept of the past */
	struct f2t_window_chunk *c;
	size_t n, cap;
	struct f2t_window_hist *h;	/* by arg, in the order first seen */
	size_t nh, caph;
	size_t bytes, peak;		/* held now, and at most */
};

/**
 * f2t_window_add() - one read's bytes, held until the window passes them
 * @arg: the capture record's arg (the CPU)
 * @last_ns: the time of the newest entry in them
 *
 * Return: 0 or -ENOMEM (nothing held).
 */
int f2t_window_add(struct f2t_window *w, uint32_t arg, const void *data, size_t len,
		   uint64_t last_ns);

/**
 * f2t_window_trim() - let go of the chunks whose newest entry is older than @from_ns
 *
 * What the keep function keeps of them goes to their CPU's history.
 *
 * Return: 0 or -ENOMEM (the chunks left as they were).
 */
int f2t_window_trim(struct f2t_window *w, uint64_t from_ns);

/**
 * f2t_window_limit() - the oldest chunks let go until @max_bytes are held
 *
 * As a trim at the oldest chunk's time, again and again.
 *
 * Return: 1 when some were let go, 0 when none had to be, or -ENOMEM.
 */
int f2t_window_limit(struct f2t_window *w, size_t max_bytes);

/**
 * f2t_window_prune() - the history passed through @keep again
 *
 * For what a later snapshot gets another way (a /proc snapshot of the
 * mappings, taken anew).
 */
void f2t_window_prune(struct f2t_window *w, f2t_window_keep_fn keep);

/**
 * f2t_window_write() - every CPU's history, then its chunks, into @capw
 *
 * The chunks are let go; the history stays for the next snapshot.
 *
 * Return: 0 or negative errno (the capture's write error).
 */
int f2t_window_write(struct f2t_window *w, struct f2t_capw *capw);

/* Everything let go; the window can be used again. */
void f2t_window_free(struct f2t_window *w);

#endif
