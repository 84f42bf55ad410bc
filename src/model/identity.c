// SPDX-License-Identifier: MIT
/* The recording's identity as named values; see identity.h. */
#include <stdio.h>
#include <time.h>

#include "model/identity.h"

char *f2t_identity_time(uint64_t realtime_ns, char *buf, size_t len)
{
	time_t secs = (time_t)(realtime_ns / 1000000000ull);
	struct tm tm;
	size_t n;

	buf[0] = '\0';
	if (!realtime_ns || !gmtime_r(&secs, &tm))
		return buf;
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n)
		snprintf(buf + n, len - n, ".%09lluZ", (unsigned long long)(realtime_ns % 1000000000ull));
	return buf;
}

static void str(struct f2t_identity *id, const char *key, const char *v)
{
	bool known = v && *v;

	id->f[id->n++] = (struct f2t_ident){ key, known ? v : F2T_IDENTITY_UNKNOWN, 0, known };
}

static void num(struct f2t_identity *id, const char *key, int64_t v, bool known)
{
	id->f[id->n++] = (struct f2t_ident){ key, NULL, known ? v : 0, known };
}

void f2t_identity_of(const struct f2t_trace_info *info, struct f2t_identity *id)
{
	id->n = 0;
	str(id, "host", info->host);
	str(id, "kernel", info->kernel);
	str(id, "kernel_version", info->kernel_version);
	str(id, "machine", info->machine);
	str(id, "boot_id", info->boot_id);
	num(id, "ncpus", info->ncpus, info->ncpus != 0);
	str(id, "cpu_model", info->cpu_model);
	str(id, "start_time", f2t_identity_time(info->realtime_ns, id->start_time,
						sizeof(id->start_time)));
	num(id, "start_realtime_ns", (int64_t)info->realtime_ns, info->realtime_ns != 0);
	num(id, "tz_offset_min", info->tz_offset_min, info->tz_known);
	/* A text input starts where its first event is: 0 is not a start. */
	num(id, "start_ns", (int64_t)info->start_ns, info->start_ns != 0);
	str(id, "clock", info->clock);
	str(id, "cmdline", info->cmdline);
	str(id, "recorder", info->recorder);
	str(id, "converter", "ftrace2trace " F2T_VERSION);
}
