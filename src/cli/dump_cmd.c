// SPDX-License-Identifier: MIT
/* ftrace2trace dump [--stats] FILE.fxt */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/suggest.h"
#include "cli/stdout.h"
#include "fxt/dump.h"
#include "util/infile.h"
#include "util/inmap.h"
#include "util/log.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftrace2trace dump [OPTIONS] FILE.fxt\n\n"
		"Prints every record of an FXT (Fuchsia trace format) file, one per line:\n"
		"byte offset, record kind, fields, then arguments, with string and thread\n"
		"references resolved.  Reads files written by any tool; '-' reads stdin.\n\n"
		"options:\n"
		"  -s, --stats   print 'KIND COUNT BYTES' for every record kind and a\n"
		"                final 'total COUNT BYTES' line instead of the records\n"
		"  -h, --help    this text\n\n"
		"A malformed file stops the dump with the offset of the bad record and\n"
		"exit status 1.  See ftrace2trace-dump(1).\n");
}

/*
 * The file mapped whole (fxt_dump() reads at any offset), a pipe's bytes
 * spooled to a temporary file first: memory stays the page cache's.
 */
static int load(const char *path, struct f2t_inmap *in)
{
	struct stat st;
	int fd = f2t_infile_open(path), ret = 0;

	in->slot = -1;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		ret = -errno;
	else if (st.st_size > 0)
		ret = f2t_inmap_open(in, fd, (size_t)st.st_size, path);
	if (ret)
		f2t_err("%s: %s", path, strerror(-ret));
	close(fd);
	return ret;
}

int f2t_cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stats", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct f2t_inmap in = { .slot = -1 };
	bool stats = false;
	const char *path;
	int c, ret;

	while ((c = getopt_long(argc, argv, "sh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			stats = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			f2t_suggest_say(argv[optind - 1], longopts);
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		f2t_err(optind >= argc ? "no file given" : "more than one file given");
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	if (load(path, &in))
		return 1;
	ret = fxt_dump(stdout, path, in.data, in.len, stats);
	/* Damage from a cut is no fault of the file's: said as what it is. */
	if (f2t_inmap_check())
		ret = -EIO;
	f2t_inmap_close(&in);
	if (!ret && fflush(stdout) != 0)
		ret = -errno;
	if (ret && ferror(stdout)) {
		char name[4096];

		/* e.g. a full disk; a closed pipe (| head) is not worth a word */
		f2t_stdout_name(name, sizeof(name));
		if (ret != -EPIPE)
			f2t_err("%s: %s", name, strerror(-ret));
	}
	return ret ? 1 : 0;
}
