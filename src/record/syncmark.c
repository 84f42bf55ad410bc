// SPDX-License-Identifier: MIT
/*
 * The recorder's clock sync markers (see syncmark.h).  The trace_marker file
 * is opened before the clocks are read, so only the write itself lies
 * between the readings and the kernel's timestamp.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/syncmark.h"
#include "util/log.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int f2t_syncmark_write(struct tracefs_instance *ti, const char *which, struct f2t_meta_sync *s)
{
	char id[sizeof(s->id)];
	int err = 0;

	memset(s, 0, sizeof(*s));
	if (tracefs_print_init(ti) < 0) {
		err = -(errno ? errno : EIO);
		goto out;
	}
	s->mono_ns = clock_ns(CLOCK_MONOTONIC);
	s->realtime_ns = clock_ns(CLOCK_REALTIME);
	s->boottime_ns = clock_ns(CLOCK_BOOTTIME);
	/* Only [A-Za-z0-9_-]: what Trace Viewer's marker pattern takes. */
	snprintf(id, sizeof(id), "ftrace2trace-%s-%d-%llx", which, (int)getpid(),
		 (unsigned long long)s->realtime_ns);
	if (tracefs_printf(ti, "trace_event_clock_sync: name=%s\n", id) < 0)
		err = -(errno ? errno : EIO);
	else
		memcpy(s->id, id, sizeof(id));
	tracefs_print_close(ti);
out:
	if (err && f2t_resource_error(err))
		f2t_err("cannot write the %s clock sync marker: %s", which, strerror(-err));
	else if (err)
		f2t_warn("cannot write the %s clock sync marker: %s (the trace has no %s "
			 "sync point)", which, strerror(-err), which);
	return err;
}
