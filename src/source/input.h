/* SPDX-License-Identifier: MIT */
/*
 * An input file opened for conversion: what it says about the recording,
 * and all of its events as one source in timestamp order.  The kind of file
 * is told from its contents, never its name; each kind has an opener
 * (capture_input.c for our own captures).  Adding a kind of input is one
 * opener and one line in input.c's table.
 */
#ifndef F2T_INPUT_H
#define F2T_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/recording.h"
#include "source/source.h"

struct f2t_input {
	struct f2t_recording rec;
	struct f2t_source *events;	/* every event, interleaved by time */
	const char *kind;		/* "ftrace2trace capture", for messages */
	void (*close)(struct f2t_input *in);
};

/*
 * One kind of input file.  @probe looks at the first bytes of a file (as
 * many as it has, up to F2T_INPUT_PROBE_LEN); @open reads it from @fd, a
 * regular file (the one probed: never opened again by name, which may
 * name another file by then, or a pipe's bytes spooled), which the caller
 * closes after; it reports any problem (naming the file by @path and the
 * offset or line) and returns 0 or a negative errno.
 */
#define F2T_INPUT_PROBE_LEN 4096

struct f2t_input_kind {
	const char *name;
	bool (*probe)(const unsigned char *head, size_t len);
	int (*open)(const char *path, int fd, struct f2t_input **out);
};

/**
 * f2t_input_open() - open a file of any kind we read
 * @path: the file, or "-" for standard input
 *
 * A pipe, FIFO or file of no size (tracefs's trace) is read to its end
 * first (f2t_infile_open()); a device or a FIFO with no writer is refused.
 *
 * Return: the input, or NULL with errno set after reporting why (a file
 * of no kind we know is named as such).
 */
struct f2t_input *f2t_input_open(const char *path);

/** f2t_input_close() - close @in and its sources; NULL is fine */
void f2t_input_close(struct f2t_input *in);

/* The openers: our capture (capture_input.c), trace-cmd's trace.dat
 * (tracedat_input.c), ftrace text and systrace HTML (text_input.c), a
 * Perfetto trace (pftrace_input.c). */
extern const struct f2t_input_kind f2t_capture_input;
extern const struct f2t_input_kind f2t_tracedat_input;
extern const struct f2t_input_kind f2t_text_input;
extern const struct f2t_input_kind f2t_html_input;
extern const struct f2t_input_kind f2t_pftrace_input;

#endif
