// SPDX-License-Identifier: MIT
/*
 * f2t_open_reg(): what a name planted by someone else can be, and what
 * comes of it.  A regular file opens (through a symlink too, unless told
 * not to follow one); a FIFO, a device, a directory, a symlink where none
 * may be, are refused at once, without being opened, and counted once each.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/openreg.h"

static char dir[] = "/tmp/f2t-openreg.XXXXXX";

static char *in_dir(const char *name)
{
	static char path[2][256];
	static int turn;

	turn ^= 1;
	snprintf(path[turn], sizeof(path[turn]), "%s/%s", dir, name);
	return path[turn];
}

static int setup(void **state)
{
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	f = fopen(in_dir("file"), "w");
	if (!f)
		return -1;
	fputs("hello\n", f);
	fclose(f);
	if (mkfifo(in_dir("fifo"), 0600) || symlink("file", in_dir("link")) ||
	    symlink("/dev/null", in_dir("devlink")) || mkdir(in_dir("sub"), 0700))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	const char *names[] = { "file", "fifo", "link", "devlink" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(in_dir(names[i]));
	rmdir(in_dir("sub"));
	rmdir(dir);
	return 0;
}

static void test_regular_file_opens(void **state)
{
	struct stat st, want;
	char buf[8] = "";
	int fd;

	assert_int_equal(stat(in_dir("file"), &want), 0);
	fd = f2t_open_reg(AT_FDCWD, in_dir("file"), F2T_OPEN_NOFOLLOW, &st);
	assert_true(fd >= 0);
	assert_true(st.st_ino == want.st_ino && st.st_dev == want.st_dev);
	assert_int_equal(read(fd, buf, 6), 6);
	assert_string_equal(buf, "hello\n");
	/* Read-only, and not inherited by a command the recorder runs. */
	assert_int_equal(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	/* Relative to a directory descriptor. */
	{
		int dfd = open(dir, O_RDONLY | O_DIRECTORY);

		assert_true(dfd >= 0);
		fd = f2t_open_reg(dfd, "file", 0, NULL);
		assert_true(fd >= 0);
		close(fd);
		close(dfd);
	}
}

static void test_symlinks(void **state)
{
	int fd;

	/* Followed when allowed (debug files are symlinks on some distributions). */
	fd = f2t_open_reg(AT_FDCWD, in_dir("link"), 0, NULL);
	assert_true(fd >= 0);
	close(fd);
	/* A name the kernel printed is never a symlink: one there was put there since. */
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("link"), F2T_OPEN_NOFOLLOW, NULL),
			 -F2T_ENOTREG);
	/* Followed to a device: refused all the same. */
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("devlink"), 0, NULL), -F2T_ENOTREG);
}

static void test_not_regular_refused_at_once(void **state)
{
	size_t before = f2t_open_reg_refused();

	alarm(10);	/* a regression blocks in open() on the FIFO: end the test instead */
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("fifo"), F2T_OPEN_NOFOLLOW, NULL),
			 -F2T_ENOTREG);
	alarm(0);
	assert_int_equal(f2t_open_reg(AT_FDCWD, "/dev/null", 0, NULL), -F2T_ENOTREG);
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("sub"), 0, NULL), -F2T_ENOTREG);
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("nope"), 0, NULL), -ENOENT);
	/* The FIFO, /dev/null, the directory: three files, whatever the tries. */
	assert_int_equal(f2t_open_reg_refused() - before, 3);
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("fifo"), 0, NULL), -F2T_ENOTREG);
	assert_int_equal(f2t_open_reg(AT_FDCWD, in_dir("devlink"), 0, NULL), -F2T_ENOTREG);
	assert_int_equal(f2t_open_reg_refused() - before, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* First: it counts refusals from none. */
		cmocka_unit_test(test_not_regular_refused_at_once),
		cmocka_unit_test(test_regular_file_opens),
		cmocka_unit_test(test_symlinks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
