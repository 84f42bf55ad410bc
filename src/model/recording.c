// SPDX-License-Identifier: MIT
/* What every output derives the same way from the recording's facts. */
#include <stdio.h>

#include "model/recording.h"

void f2t_recording_sync_id(const struct f2t_trace_info *info, char *buf)
{
	snprintf(buf, F2T_SYNC_ID_MAX, "ftrace2trace-%llx-%llx",
		 (unsigned long long)info->start_ns, (unsigned long long)info->realtime_ns);
}

struct f2t_text f2t_recording_kallsyms(const struct f2t_recording *rec)
{
	return rec->read_kallsyms ? rec->read_kallsyms(rec->kallsyms_ctx) : rec->kallsyms;
}
