// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "util/openreg.h"
#include "util/strset.h"

#define READ_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* The files refused, by device and inode: counted once each. */
static struct f2t_strset refused;
static size_t nrefused;

static void count_refusal(const struct stat *st)
{
	struct {
		dev_t dev;
		ino_t ino;
	} key = { st->st_dev, st->st_ino };

	/* Out of memory: counted again, rather than not at all. */
	if (f2t_strset_add(&refused, (const char *)&key, sizeof(key)) != 0)
		nrefused++;
}

/* Is B the file A was? */
static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Without /proc: the name itself, opened so that nothing blocks, checked after. */
static int open_direct(int dirfd, const char *path, unsigned int how)
{
	int fd = openat(dirfd, path, READ_FLAGS | (how & F2T_OPEN_NOFOLLOW ? O_NOFOLLOW : 0));

	return fd < 0 && errno == ELOOP ? -F2T_ENOTREG : fd < 0 ? -errno : fd;
}

int f2t_open_reg(int dirfd, const char *path, unsigned int how, struct stat *st)
{
	struct stat was, tmp;
	char self[32];
	int pfd, fd;

	if (!st)
		st = &tmp;
	/* With O_NOFOLLOW, O_PATH opens a symlink itself: fstat() then says so. */
	pfd = openat(dirfd, path, O_PATH | O_CLOEXEC | (how & F2T_OPEN_NOFOLLOW ? O_NOFOLLOW : 0));
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &was)) {
		fd = -errno;
		goto out;
	}
	if (!S_ISREG(was.st_mode)) {
		count_refusal(&was);
		fd = -F2T_ENOTREG;
		goto out;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, READ_FLAGS);
	if (fd < 0 && errno == ENOENT)
		fd = open_direct(dirfd, path, how);
	else if (fd < 0)
		fd = -errno;
	if (fd < 0)
		goto out;
	/* The same file as the one checked, unless the name moved (no /proc). */
	if (fstat(fd, st)) {
		int err = -errno;

		close(fd);
		fd = err;
	} else if (!S_ISREG(st->st_mode) || !same_inode(st, &was)) {
		if (!S_ISREG(st->st_mode))
			count_refusal(st);
		close(fd);
		fd = -F2T_ENOTREG;
	}
out:
	close(pfd);
	return fd;
}

size_t f2t_open_reg_refused(void)
{
	return nrefused;
}
