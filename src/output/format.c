// SPDX-License-Identifier: MIT
/* Output formats: names, file extensions, and each one's writer. */
#include <string.h>
#include <strings.h>

#include "output/format.h"

static const struct f2t_format_desc formats[] = {
	{ F2T_FMT_FXT, "fxt", ".fxt", f2t_fxt_writer_init, false, false },
	{ F2T_FMT_JSON, "json", ".json", f2t_json_writer_init, false, true },
	{ F2T_FMT_JSON_GZ, "json.gz", ".json.gz", f2t_json_writer_init, true, true },
	{ F2T_FMT_SYSTRACE, "systrace", ".txt", f2t_systrace_writer_init, false, false },
	{ F2T_FMT_PERFETTO, "perfetto", ".pftrace", f2t_perfetto_writer_init, false, false },
	/* The extension Perfetto's own tools also write. */
	{ F2T_FMT_PERFETTO, "perfetto", ".perfetto-trace", f2t_perfetto_writer_init, false, false },
	/* Another name for the same format: the one its file extension suggests. */
	{ F2T_FMT_SYSTRACE, "txt", ".txt", f2t_systrace_writer_init, false, false },
};

const struct f2t_format_desc *f2t_format_desc(enum f2t_format fmt)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].format == fmt)
			return &formats[i];
	return NULL;
}

enum f2t_format f2t_format_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcasecmp(name, formats[i].name))
			return formats[i].format;
	return F2T_FMT_NONE;
}

enum f2t_format f2t_format_from_path(const char *path)
{
	size_t plen = strlen(path);

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		size_t elen = strlen(formats[i].ext);

		if (plen > elen && !strcasecmp(path + plen - elen, formats[i].ext))
			return formats[i].format;
	}
	return F2T_FMT_NONE;
}

void f2t_format_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)",
					 i ? ", " : "", formats[i].name, formats[i].ext);
}
