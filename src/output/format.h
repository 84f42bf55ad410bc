/* SPDX-License-Identifier: MIT */
/*
 * The table of output formats: name, file extension, writer constructor.
 * Adding a format means adding a row in format.c.
 */
#ifndef F2T_FORMAT_H
#define F2T_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "output/writer.h"

struct f2t_format_desc {
	enum f2t_format format;
	const char *name;
	const char *ext;
	int (*init)(struct f2t_writer *w);
	bool gzip;		/* the file is the writer's output gzip-compressed */
	/*
	 * The writer reads CPU time per thread (f2t_model_cputime()): the
	 * model tallies it only for such writers, saving every other
	 * conversion a call and a task lookup per switch.
	 */
	bool cputime;
};

/* The row for FMT, or NULL. */
const struct f2t_format_desc *f2t_format_desc(enum f2t_format fmt);
/* "fxt (.fxt), json (.json), ..." for messages. */
void f2t_format_list(char *buf, size_t len);

#endif
