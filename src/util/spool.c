// SPDX-License-Identifier: MIT
/* Anonymous temporary files for writers; see spool.h. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/spool.h"

/* An unlinked file in DIR: O_TMPFILE where the file system has it. */
static int tmpfile_in(const char *dir)
{
	char path[4096];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	if (snprintf(path, sizeof(path), "%s/.ftrace2trace-XXXXXX", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

const char *f2t_tmpdir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

int f2t_tmpfile(void)
{
	return tmpfile_in(f2t_tmpdir());
}

int f2t_spool_open(struct f2t_spool *s, const struct f2t_out *near)
{
	char dir[4096];
	int fd = -ENOENT;

	s->fd = -1;
	s->out = NULL;
	/* Only f2t_out_open() of a path sets ->file: ->path may be a label. */
	if (near && near->file) {
		const char *slash = strrchr(near->path, '/');

		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == near->path)
			snprintf(dir, sizeof(dir), "/");
		else
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - near->path), near->path);
		fd = tmpfile_in(dir);
	}
	if (fd < 0)
		fd = f2t_tmpfile();
	if (fd < 0)
		return fd;
	s->out = f2t_out_fdopen(fd, "<spool>");
	if (!s->out) {
		close(fd);
		return -ENOMEM;
	}
	s->fd = fd;
	return 0;
}

/*
 * In-kernel copy where the file systems allow it: no trip through user
 * memory, and a reflink on those that share extents.  Returns the bytes
 * copied; *fallback is set when the caller should copy the rest itself.
 */
static off_t copy_in_kernel(int in, struct f2t_out *dst, bool *fallback)
{
	int out = dst->fd < 0 ? -dst->fd - 1 : dst->fd;	/* see f2t_out_fdopen() */
	off_t off = 0;

	/* A compressing output takes its bytes through the compressor. */
	*fallback = dst->gz != NULL;
	if (*fallback || f2t_out_flush(dst))
		return 0;
	for (;;) {
		ssize_t n = copy_file_range(in, &off, out, NULL, 1 << 30, 0);

		if (n > 0) {
			dst->total += (uint64_t)n;
			continue;
		}
		if (n == 0)
			return off;
		if (errno == EINTR)
			continue;
		/* EXDEV, EINVAL (a pipe), ENOSYS...: plain reads and writes. */
		*fallback = true;
		return off;
	}
}

int f2t_spool_copy(struct f2t_spool *s, struct f2t_out *dst)
{
	bool fallback;
	off_t off;
	int err = f2t_out_flush(s->out);

	if (err)
		return err;
	off = copy_in_kernel(s->fd, dst, &fallback);
	if (dst->err || !fallback)
		return dst->err;
	for (;;) {
		ssize_t n;

		/* Leave room for a large read; flush only when it runs low. */
		if (dst->cap - dst->len < dst->cap / 4 && f2t_out_flush(dst))
			return dst->err;
		n = pread(s->fd, dst->buf + dst->len, dst->cap - dst->len, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		dst->len += (size_t)n;
		off += n;
	}
	return dst->err;
}

void f2t_spool_close(struct f2t_spool *s)
{
	if (s->out)
		f2t_out_close(s->out);	/* does not close an fdopen()ed fd */
	if (s->fd >= 0)
		close(s->fd);
	s->out = NULL;
	s->fd = -1;
}
