// SPDX-License-Identifier: MIT
/* Standard output's errors, checked once everything is flushed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/stdout.h"
#include "util/log.h"

void f2t_stdout_name(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/fd/1", buf, len - 1);

	if (n > 0 && buf[0] == '/') {
		buf[n] = '\0';
		return;
	}
	snprintf(buf, len, "standard output");
}

void f2t_stdout_begin(void)
{
	/* 64 KB: record --help is over stdio's default 4 KB (glibc sizes no buffer it allocates). */
	static char buf[64 * 1024];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

int f2t_stdout_finish(int status)
{
	char name[4096];
	int err = 0;

	/* ferror(): an earlier flush failed, or one the subcommand already reported. */
	if (fflush(stdout))
		err = errno;
	else if (ferror(stdout))
		err = EIO;
	if (!err || status)
		return status;
	if (err != EPIPE) {
		f2t_stdout_name(name, sizeof(name));
		f2t_err("%s: %s", name, strerror(err));
	}
	return 1;
}
