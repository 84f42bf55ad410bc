/* SPDX-License-Identifier: MIT */
/*
 * One input of `ftrace2trace merge`, as its first pass finds it: where each
 * top-level section's value starts (so the second pass can seek straight to
 * it), and its clock_sync events.  Then what the merge decided for it (its
 * clock offset), then what copying it counted.
 */
#ifndef F2T_MERGE_INPUT_H
#define F2T_MERGE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "merge/jlex.h"

/* The top-level members merge treats specially. */
enum f2t_msect {
	F2T_MS_EVENTS,		/* traceEvents (or the whole bare array) */
	F2T_MS_SYSTEM,		/* systemTraceEvents: ftrace text */
	F2T_MS_SAMPLES,		/* samples */
	F2T_MS_FRAMES,		/* stackFrames */
	F2T_MS_OTHER,		/* otherData */
	F2T_MS_META,		/* metadata */
	F2T_MS_DTU,		/* displayTimeUnit */
	F2T_MS_COUNT
};

/* Their member names, in enum order. */
extern const char *const f2t_msect_names[F2T_MS_COUNT];

/* Longest sync_id merge matches on; longer ones are ignored with a warning. */
#define F2T_MSYNC_ID_MAX 256

/* A clock_sync event ("ph":"c") of an input. */
struct f2t_msync {
	char *id;		/* args.sync_id */
	uint64_t index;		/* its position in traceEvents */
	int64_t ts_ns;		/* ts */
	int64_t issue_ns;	/* args.issue_ts, when issuer */
	bool issuer;
	bool keep;		/* the first with its id over all inputs: copied */
};

/* Where the sync point happened on the input's own clock. */
int64_t f2t_msync_time(const struct f2t_msync *s);

/* Any other top-level member. */
struct f2t_mextra {
	char *key;
	struct f2t_jpos at;
};

enum f2t_mhow {
	F2T_MH_REFERENCE,	/* the first input: the clock everything goes to */
	F2T_MH_GIVEN,		/* --offset */
	F2T_MH_SYNC,		/* from clock_sync events shared with input via */
	F2T_MH_NOTHING,		/* nothing with a time in it: no offset needed */
};

struct f2t_minput {
	const char *path;		/* as given: what messages and --offset name */
	const char *file;		/* what is read: path, or a recording's conversion */
	size_t num;			/* 1-based position among the inputs */
	struct stat st;			/* at the first pass, to notice changes */

	/* First pass. */
	bool array_form;		/* a bare array of events */
	bool cut_short;			/* ... whose closing ']' is missing */
	bool has[F2T_MS_COUNT];
	struct f2t_jpos at[F2T_MS_COUNT];
	struct f2t_mextra *extra;
	size_t nextra, extra_cap;
	struct f2t_msync *syncs;	/* in traceEvents order */
	size_t nsyncs, syncs_cap;
	uint64_t nevents;
	uint64_t bad_syncs;		/* clock_sync events without usable id or ts */

	/* Decided before copying. */
	bool offset_given;
	int64_t offset_ns;		/* added to every timestamp */
	enum f2t_mhow how;
	size_t via;			/* F2T_MH_SYNC: index of the input it was matched with */
	size_t pairs;			/* ... over this many sync ids */
	int64_t spread_ns;		/* ... whose offsets differed by this much at most */
	bool rename_frames;		/* prefix stack frame ids with "NUM:" */

	/* Counted while copying. */
	uint64_t copied;		/* traceEvents elements written */
	uint64_t dropped_syncs;		/* clock_sync events left out as duplicates */
	uint64_t unshifted;		/* "ts" values that are not numbers, left alone */
};

/**
 * f2t_minput_scan() - first pass over one input
 * @in: path and num set, the rest zero
 *
 * Reads the whole file once, checking it is JSON, and fills in the
 * first-pass fields.  Memory stays bounded: only positions, top-level
 * member names and clock_sync events are kept.  Errors are printed
 * ("FILE: line L col C: reason").
 *
 * Return: 0 or a negative errno.
 */
int f2t_minput_scan(struct f2t_minput *in);

/**
 * f2t_minput_open_at() - open an input again for the second pass
 * @in: the input
 * @lx: a lexer to set up, positioned at @at
 * @at: a position the first pass recorded
 *
 * Refuses (with a message) a file that changed since the first pass.
 *
 * Return: 0 or a negative errno; on 0 the caller must f2t_jlex_fini(@lx).
 */
int f2t_minput_open_at(const struct f2t_minput *in, struct f2t_jlex *lx,
		       const struct f2t_jpos *at);

void f2t_minput_fini(struct f2t_minput *in);

#endif
