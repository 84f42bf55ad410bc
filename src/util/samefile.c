// SPDX-License-Identifier: MIT
/* Outputs that are their own input, by device and inode. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "util/samefile.h"

/* "-" is the standard stream FD. */
static int stat_of(const char *path, int fd, struct stat *st)
{
	return strcmp(path, "-") ? stat(path, st) : fstat(fd, st);
}

static bool same_file(const char *input, const char *output)
{
	struct stat si, so;

	if (stat_of(input, STDIN_FILENO, &si) || stat_of(output, STDOUT_FILENO, &so))
		return false;
	/* A terminal or a pipe on both sides is no file to destroy. */
	return S_ISREG(si.st_mode) && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
}

int f2t_refuse_own_input(const char *input, const char *output)
{
	if (!same_file(input, output))
		return 0;
	if (!strcmp(output, "-"))
		f2t_err("standard output is %s, the input: writing it would destroy it", input);
	else if (!strcmp(output, input))
		f2t_err("%s is both the input and an output: writing it would destroy it", input);
	else
		f2t_err("%s is %s, the input: writing it would destroy it", output, input);
	return -EINVAL;
}
