// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>

#include "util/log.h"

bool f2t_verbose;
bool f2t_quiet;
static FILE *log_out;
static unsigned long errors;

unsigned long f2t_errors(void)
{
	return errors;
}

void f2t_log_set_output(FILE *f)
{
	log_out = f;
}

static void vsay(const char *level, const char *fmt, va_list ap)
{
	FILE *f = log_out ? log_out : stderr;

	fprintf(f, "ftrace2trace: %s", level);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

void f2t_err(const char *fmt, ...)
{
	va_list ap;

	errors++;
	va_start(ap, fmt);
	vsay("error: ", fmt, ap);
	va_end(ap);
}

void f2t_warn(const char *fmt, ...)
{
	va_list ap;

	if (f2t_quiet)
		return;
	va_start(ap, fmt);
	vsay("warning: ", fmt, ap);
	va_end(ap);
}

void f2t_info(const char *fmt, ...)
{
	va_list ap;

	if (!f2t_verbose)
		return;
	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}
