// SPDX-License-Identifier: MIT
/* Buffered output: pieces written where they are (f2t_out_writev()) land in order. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "util/out.h"

static const struct iovec pieces[] = {
	{ .iov_base = "0123456789", .iov_len = 10 },
	{ .iov_base = "", .iov_len = 0 },
	{ .iov_base = "abcdefghij", .iov_len = 10 },
	{ .iov_base = "KLMNO", .iov_len = 5 },
};

/* What a file descriptor holds from its start. */
static size_t contents(int fd, char *buf, size_t cap)
{
	ssize_t n = pread(fd, buf, cap, 0);

	assert_true(n >= 0);
	return (size_t)n;
}

/* After the bytes buffered before them, each piece whole, in order. */
static void test_writev_in_order(void **state)
{
	int fd = memfd_create("out", 0);
	struct f2t_out *o = f2t_out_fdopen(fd, "<mem>");
	char buf[64];

	assert_non_null(o);
	f2t_out_puts(o, "head:");
	f2t_out_writev(o, pieces, 4);
	f2t_out_puts(o, ":tail");
	assert_int_equal(f2t_out_offset(o), 5 + 25 + 5);
	assert_int_equal(f2t_out_close(o), 0);
	assert_int_equal(contents(fd, buf, sizeof(buf)), 35);
	assert_memory_equal(buf, "head:0123456789abcdefghijKLMNO:tail", 35);
	close(fd);
}

/*
 * A write the kernel takes in part (here at the file size limit, in the
 * second piece): what it took is in order, and the error is the output's.
 */
static void test_writev_partial(void **state)
{
	struct rlimit old, lim = { .rlim_cur = 15, .rlim_max = RLIM_INFINITY };
	int fd = memfd_create("out", 0);
	struct f2t_out *o = f2t_out_fdopen(fd, "<mem>");
	char buf[64];

	assert_non_null(o);
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	f2t_out_writev(o, pieces, 4);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(o->err, -EFBIG);
	assert_int_equal(f2t_out_close(o), -EFBIG);
	assert_int_equal(contents(fd, buf, sizeof(buf)), 15);
	assert_memory_equal(buf, "0123456789abcde", 15);
	close(fd);
}

/* A compressed output compresses the pieces as it does any other bytes. */
static void test_writev_gzip(void **state)
{
	char path[] = "/tmp/f2t-test-out-XXXXXX", name[64], buf[64];
	int fd = mkstemp(path);
	struct f2t_out *o;
	gzFile gz;

	assert_true(fd >= 0);
	close(fd);
	snprintf(name, sizeof(name), "%s.gz", path);
	o = f2t_out_open_gzip(name);
	assert_non_null(o);
	f2t_out_puts(o, "head:");
	f2t_out_writev(o, pieces, 4);
	assert_int_equal(f2t_out_close(o), 0);
	gz = gzopen(name, "rb");
	assert_non_null(gz);
	assert_int_equal(gzread(gz, buf, sizeof(buf)), 30);
	assert_memory_equal(buf, "head:0123456789abcdefghijKLMNO", 30);
	gzclose(gz);
	unlink(name);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writev_in_order),
		cmocka_unit_test(test_writev_partial),
		cmocka_unit_test(test_writev_gzip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
