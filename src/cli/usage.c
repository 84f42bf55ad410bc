// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "cli/suggest.h"
#include "cli/usage.h"
#include "util/log.h"

int f2t_usage_error(const char *synopsis, const char *cmd, const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	f2t_err("%s", msg);
	fprintf(stderr, "%s'ftrace2trace %s --help' lists the options.\n", synopsis, cmd);
	return 2;
}

int f2t_usage_bad_option(const char *synopsis, const char *cmd, int c, const char *arg,
			 const struct option *longopts)
{
	char quoted[256];

	if (c == ':')
		return f2t_usage_error(synopsis, cmd, "option '%s' needs a value", arg);
	return f2t_usage_error(synopsis, cmd, "unknown option %s",
			       f2t_suggest_quote(arg, longopts, quoted, sizeof(quoted)));
}
