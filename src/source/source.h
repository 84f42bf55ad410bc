/* SPDX-License-Identifier: MIT */
/*
 * What a writer may ask of the source an event came from.
 */
#ifndef F2T_SOURCE_H
#define F2T_SOURCE_H

#include <stddef.h>

#include "model/event.h"

/*
 * The kernel's own ftrace text for EV, exactly as /sys/kernel/tracing/trace
 * prints it with the record-tgid option ("TASK-PID (TGID) [CPU] FLAGS
 * SECONDS: event: fields", no trailing newline), formatted through
 * libtraceevent with the kernel's print formats.  The buffer belongs to the
 * source and is valid until the next call.  Returns NULL (errno set) for an
 * event that has no kernel text (e.g. F2T_EV_LOST).
 */
const char *f2t_event_text(const struct f2t_event *ev, size_t *len);

/*
 * The event's raw fields for writers that pass unknown tracepoints through
 * (F2T_EV_OTHER): calls FN once per field with its name and either a
 * number (is_str 0) or a string.  Returns 0 or negative errno.
 */
int f2t_event_fields(const struct f2t_event *ev,
		     int (*fn)(void *ctx, const char *name, int is_str,
			       long long num, const char *str),
		     void *ctx);

#endif
