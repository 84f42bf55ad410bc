/* SPDX-License-Identifier: MIT */
/*
 * `ftrace2trace merge`: several Chrome JSON traces, each on its own clock,
 * into one, on the first input's clock.  See ftrace2trace-merge(1).
 */
#ifndef F2T_MERGE_H
#define F2T_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --offset INPUT=SECONDS */
struct f2t_merge_offset {
	const char *input;	/* as given among the inputs */
	int64_t ns;		/* added to INPUT's timestamps */
};

struct f2t_merge_opts {
	const char *output;		/* "-": standard output */
	const char *const *inputs;	/* inputs[0] is the reference clock */
	size_t ninputs;
	/* NULL, or where each input is read from when not inputs[i] itself (NULL). */
	const char *const *files;
	const struct f2t_merge_offset *offsets;
	size_t noffsets;
	bool quiet;			/* no summary */
};

/**
 * f2t_merge() - merge JSON traces onto one clock
 * @opts: what to merge, where to
 *
 * Two passes over every input, each streaming (memory does not grow with
 * the inputs' size): the first checks the JSON and finds the clock_sync
 * events, the offsets are decided, the second copies.  The output is
 * written to a temporary file next to it and renamed into place at the
 * end, so a failure leaves no partial output.  Every problem is printed.
 *
 * Return: 0, or a negative errno.
 */
int f2t_merge(const struct f2t_merge_opts *opts);

#endif
