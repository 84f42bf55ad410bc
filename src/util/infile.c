// SPDX-License-Identifier: MIT
/* Inputs as regular files, streams spooled; see infile.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/infile.h"
#include "util/log.h"
#include "util/spool.h"
#include "util/path.h"

#define COPY_SIZE (256u << 10)
/* A stream without end (trace_pipe) fills the disk: said every so often. */
#define PROGRESS_STEP (1ull << 30)

/*
 * A FIFO opened without waiting reads "end of file" while no program has
 * it open for writing, "try again" while one has and wrote nothing yet.
 * Either way, afterwards it is read waiting for what comes.
 */
static int writer_of_fifo(const char *path, int fd, char *buf, size_t *got)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	*got = 0;
	poll(&pfd, 1, F2T_INFILE_FIFO_WAIT_MS);
	n = read(fd, buf, COPY_SIZE);
	if (n == 0) {
		f2t_err("%s: a FIFO or pipe with nothing in it and no program writing to it (none within %d ms)",
			path, F2T_INFILE_FIFO_WAIT_MS);
		return -EPIPE;
	}
	if (n < 0 && errno != EAGAIN) {
		f2t_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	*got = n > 0 ? (size_t)n : 0;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		f2t_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* FD's bytes to their end, into a new temporary file (*OUT): 0, or a negative errno. */
static int spool(const char *path, int fd, bool fifo, int *out)
{
	char *buf = malloc(COPY_SIZE);
	int tmp = -1, ret = 0;
	uint64_t total = 0;
	size_t got = 0;

	if (!buf) {
		f2t_err("%s: out of memory", path);
		return -ENOMEM;
	}
	if (fifo)
		ret = writer_of_fifo(path, fd, buf, &got);
	if (ret)
		goto out;
	tmp = f2t_tmpfile();
	if (tmp < 0) {
		ret = tmp;
		f2t_err("%s: cannot make a temporary file in %s to read it into: %s", path,
			f2t_tmpdir(), strerror(-ret));
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (got) {
			ret = write_all(tmp, buf, got);
			if (ret) {
				f2t_err("%s: copying it into a temporary file in %s: %s", path,
					f2t_tmpdir(), strerror(-ret));
				goto out;
			}
			total += got;
			if (total / PROGRESS_STEP != (total - got) / PROGRESS_STEP)
				f2t_warn("%s: %llu GiB read into a temporary file in %s so far",
					 path, (unsigned long long)(total / PROGRESS_STEP), f2t_tmpdir());
		}
		n = read(fd, buf, COPY_SIZE);
		if (n < 0 && errno == EINTR) {
			got = 0;
			continue;
		}
		if (n < 0) {
			ret = -errno;
			f2t_err("%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		got = (size_t)n;
	}
	f2t_info("%s: %llu bytes read into a temporary file in %s", path,
		 (unsigned long long)total, f2t_tmpdir());
out:
	free(buf);
	if (ret && tmp >= 0)
		close(tmp);
	*out = ret ? -1 : tmp;
	return ret;
}

int f2t_infile_open(const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "standard input" : path;
	struct stat st;
	int fd, ret, copy;

	/* Without waiting: a FIFO's open would, for a writer. */
	fd = is_stdin ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3) :
			f2t_path_open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		f2t_err("%s: %s", name, strerror(errno));
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		ret = is_stdin ? 0 : fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		if (ret) {
			ret = -errno;
			f2t_err("%s: %s", name, strerror(errno));
		}
		goto out;
	}
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		f2t_err("%s: a device, not a trace (give a file, a pipe or a FIFO)", name);
		ret = -ENODEV;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		f2t_err("%s: %s", name, strerror(EISDIR));
		ret = -EISDIR;
		goto out;
	}
	/* A named FIFO is read without waiting until it has a writer; the rest, waiting. */
	if (!is_stdin && !S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		ret = -errno;
		f2t_err("%s: %s", name, strerror(errno));
		goto out;
	}
	ret = spool(name, fd, !is_stdin && S_ISFIFO(st.st_mode), &copy);
	if (!ret) {
		close(fd);
		fd = copy;
	}
out:
	if (ret && fd >= 0)
		close(fd);
	return ret ? ret : fd;
}
