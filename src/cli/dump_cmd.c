// SPDX-License-Identifier: MIT
/* ftrace2trace dump [--stats] FILE.fxt */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/stdout.h"
#include "fxt/dump.h"
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

struct input {
	void *data;
	size_t len;
	bool mapped;
};

/* Reads what cannot be mapped (pipes, empty files) into memory. */
static int slurp(int fd, struct input *in)
{
	size_t cap = 1 << 16;
	unsigned char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	in->len = 0;
	for (;;) {
		ssize_t n;

		if (in->len == cap) {
			unsigned char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + in->len, cap - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (n == 0)
			break;
		in->len += (size_t)n;
	}
	in->data = buf;
	return 0;
}

static int load(const char *path, struct input *in)
{
	struct stat st;
	int fd, ret = 0;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		in->data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (in->data != MAP_FAILED) {
			in->len = (size_t)st.st_size;
			in->mapped = true;
			goto out;
		}
	}
	ret = slurp(fd, in);
out:
	if (fd != STDIN_FILENO)
		close(fd);
	return ret;
}

/* Standard output's name for a message: its file's path when it has one. */
static void unload(struct input *in)
{
	if (in->mapped)
		munmap(in->data, in->len);
	else
		free(in->data);
}

int f2t_cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stats", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct input in = { 0 };
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
	ret = load(path, &in);
	if (ret) {
		f2t_err("%s: %s", path, strerror(-ret));
		return 1;
	}
	ret = fxt_dump(stdout, path, in.data, in.len, stats);
	unload(&in);
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
