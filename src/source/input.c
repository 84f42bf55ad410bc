// SPDX-License-Identifier: MIT
/* Opening an input: which kind of file it is, from its first bytes. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "source/input.h"
#include "util/infile.h"
#include "util/inmap.h"
#include "util/log.h"

static const struct f2t_input_kind *const kinds[] = {
	&f2t_capture_input,
	&f2t_tracedat_input,
	&f2t_html_input,
	&f2t_text_input,
	&f2t_pftrace_input,
};

struct f2t_input *f2t_input_open(const char *path)
{
	unsigned char head[F2T_INPUT_PROBE_LEN];
	const char *name = strcmp(path, "-") ? path : "standard input";
	struct f2t_input *in = NULL;
	ssize_t n;
	int fd, ret;

	/* Before the openers: trace.dat's guards SIGBUS while it opens, then restores it. */
	ret = f2t_inmap_arm();
	if (ret) {
		f2t_err("%s: %s", name, strerror(-ret));
		fd = -1;
		goto out;
	}
	fd = f2t_infile_open(path);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	n = pread(fd, head, sizeof(head), 0);
	if (n < 0) {
		ret = -errno;
		f2t_err("%s: %s", name, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!kinds[i]->probe(head, (size_t)n))
			continue;
		ret = kinds[i]->open(name, fd, &in);
		goto out;
	}
	f2t_err("%s: offset 0: not a file this build reads (an ftrace2trace capture, a trace-cmd trace.dat, ftrace text, a systrace HTML file or a Perfetto trace)",
		name);
	ret = -EINVAL;
out:
	if (fd >= 0)
		close(fd);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return in;
}

void f2t_input_close(struct f2t_input *in)
{
	if (in)
		in->close(in);
}
