/* SPDX-License-Identifier: MIT */
/*
 * Capture -> trace files.  One decode pass feeds every requested output.
 */
#ifndef F2T_CONVERT_H
#define F2T_CONVERT_H

#include <stdbool.h>

#include "output/writer.h"

#define F2T_MAX_OUTPUTS F2T_MAX_WRITERS

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
 * Converts the capture at CAPTURE_PATH into every output.  Prints its own
 * errors (naming file and offset).  Returns 0 or a negative errno; on error,
 * outputs written so far are removed so no partial file is left behind.
 */
int f2t_convert(const char *capture_path, const struct f2t_convert_opts *opts);

/*
 * Adds an output, resolving its format from FORMAT_NAME (may be NULL) or
 * the path's extension.  Prints an error and returns -EINVAL if neither works.
 */
int f2t_convert_add_output(struct f2t_convert_opts *opts, const char *path,
			   const char *format_name);

#endif
