// SPDX-License-Identifier: MIT
/* The recording's identity in the report's text (report-local.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/identity.h"
#include "report/report-local.h"

/* Field @key of @id: a string, or a number as text ("unknown" if not known). */
static const char *field(const struct f2t_identity *id, const char *key, char *buf, size_t len)
{
	for (size_t i = 0; i < id->n; i++) {
		const struct f2t_ident *f = &id->f[i];

		if (strcmp(f->key, key))
			continue;
		if (f->str)
			return f->str;
		if (!f->known)
			return F2T_IDENTITY_UNKNOWN;
		snprintf(buf, len, "%" PRId64, f->num);
		return buf;
	}
	return F2T_IDENTITY_UNKNOWN;
}

void f2t_report_identity_text(const struct f2t_trace_info *info, const char *indent,
			      struct f2t_out *o)
{
	struct f2t_identity id;
	/* n: the one number of each line (field() writes it there). */
	char n[24], tz[32] = "";

	f2t_identity_of(info, &id);
	if (info->tz_known)
		snprintf(tz, sizeof(tz), ", UTC%+03d:%02d", info->tz_offset_min / 60,
			 abs(info->tz_offset_min) % 60);
	f2t_out_printf(o, "%srecorded on %s (boot %s): Linux %s (%s) %s, %s CPUs (%s)\n", indent,
		       field(&id, "host", n, sizeof(n)), field(&id, "boot_id", n, sizeof(n)),
		       field(&id, "kernel", n, sizeof(n)), field(&id, "kernel_version", n, sizeof(n)),
		       field(&id, "machine", n, sizeof(n)), field(&id, "ncpus", n, sizeof(n)),
		       field(&id, "cpu_model", n, sizeof(n)));
	f2t_out_printf(o, "%sstarted %s%s, trace clock %s at %s ns; command: %s\n", indent,
		       field(&id, "start_time", n, sizeof(n)), tz, field(&id, "clock", n, sizeof(n)),
		       field(&id, "start_ns", n, sizeof(n)), field(&id, "cmdline", n, sizeof(n)));
	f2t_out_printf(o, "%srecorded by %s, read by %s\n", indent,
		       field(&id, "recorder", n, sizeof(n)), field(&id, "converter", n, sizeof(n)));
}
