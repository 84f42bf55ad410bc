/* SPDX-License-Identifier: MIT */
/*
 * Which machine, kernel, boot and run an output came from, as one list of
 * named values that every output writes under the same names (Perfetto's
 * metadata, FXT's, JSON's otherData, the report's header and rows), so a
 * fleet's files can be told apart and joined on them.  What the input does
 * not say is unknown: a string "unknown", a number not known.
 *
 *   struct f2t_identity id;
 *   f2t_identity_of(&rec->info, &id);
 *   for (size_t i = 0; i < id.n; i++) ... id.f[i].key, .str or .num ...
 */
#ifndef F2T_IDENTITY_H
#define F2T_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/recording.h"

/* What a string the input does not give reads as. */
#define F2T_IDENTITY_UNKNOWN "unknown"

struct f2t_ident {
	const char *key;
	const char *str;	/* a string's value ("unknown" if not known); NULL: a number */
	int64_t num;		/* a number's value, when known */
	bool known;
};

/* The fields f2t_identity_of() gives (FXT puts them in one record of 15 arguments). */
#define F2T_IDENTITY_MAX 15

struct f2t_identity {
	struct f2t_ident f[F2T_IDENTITY_MAX];
	size_t n;
	char start_time[48];	/* what the start_time field points to */
};

/**
 * f2t_identity_of() - the identity of the recording @info describes
 *
 * In this order: host, kernel (uname -r), kernel_version (uname -v),
 * machine, boot_id, ncpus, cpu_model, start_time (UTC, ISO 8601 with ns),
 * start_realtime_ns, tz_offset_min, start_ns (the trace clock at the
 * start), clock, cmdline, recorder (what made the recording), converter
 * (this program, which writes the output).  @id's strings point into
 * @info and @id itself.
 */
void f2t_identity_of(const struct f2t_trace_info *info, struct f2t_identity *id);

/**
 * f2t_identity_time() - @realtime_ns as "YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ"
 * @buf: at least 40 bytes
 *
 * Return: @buf; "" for 0 (not known).
 */
char *f2t_identity_time(uint64_t realtime_ns, char *buf, size_t len);

#endif
