/* SPDX-License-Identifier: MIT */
/*
 * A file of any kind we read (source/input.h) -> trace files, through the
 * pipeline (pipeline.h): one pass feeds every requested output.  What
 * `convert` runs, and `record` at its end.
 */
#ifndef F2T_CONVERT_H
#define F2T_CONVERT_H

#include <stdbool.h>

#include "pipeline/pipeline.h"
#include "source/input.h"

struct f2t_output {
	const char *path;
	enum f2t_format format;
};

struct f2t_convert_opts {
	struct f2t_output outputs[F2T_MAX_OUTPUTS];
	unsigned int noutputs;
	bool progress;		/* show progress on stderr */
	bool summary;		/* print the end-of-run summary (counts, losses) */
};

/*
 * Converts the file at PATH into every output.  Reports its own errors
 * (naming file and offset).  Returns 0 or a negative errno; on error, no
 * output is left behind to be mistaken for a whole trace.
 */
int f2t_convert(const char *path, const struct f2t_convert_opts *opts);

/*
 * The same, for an input already open, with @tap (NULL: none) fed in the
 * same pass: an analysis that reads the input's recording (its task table)
 * after the pass, before the input is closed.
 */
int f2t_convert_input(struct f2t_input *in, const struct f2t_convert_opts *opts,
		      const struct f2t_tap *tap);

/*
 * Adds an output, resolving its format from FORMAT_NAME (may be NULL) or
 * the path's extension.  Prints an error and returns -EINVAL if neither works.
 */
int f2t_convert_add_output(struct f2t_convert_opts *opts, const char *path,
			   const char *format_name);

#endif
