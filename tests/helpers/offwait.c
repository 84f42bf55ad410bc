// SPDX-License-Identifier: MIT
/*
 * offwait [N] [FILE]: threads that block through the C library's system
 * call wrappers, each called straight from a function of its own, for the
 * off-CPU unwinding test.  N rounds (default 20) of:
 *   "reader"  wait_in_read(): read() on a pipe, woken by "writer", which
 *             writes a byte every 5 ms
 *   "sleeper" wait_in_nanosleep(): nanosleep() 5 ms
 *   "syncer"  wait_in_fdatasync(): writes 64 KB to FILE (default
 *             ./offwait.dat, removed at the end) and fdatasync()s it
 * The distribution's C library has no frame pointers: the kernel's
 * frame-pointer walk of a stack blocked in read() goes from read() to the
 * caller of wait_in_read(), and wait_in_read() is missing (tests/helpers/
 * blocker adds a call between to hide this).  This program's own functions
 * have frame pointers, like every helper's.  On exit it prints one line the
 * test parses:
 *   offwait: tgid=X reader=TID writer=TID sleeper=TID syncer=TID
 */
#define _GNU_SOURCE	/* pthread_setname_np */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long rounds = 20;
static const char *path = "offwait.dat";
static int pipefd[2];
static pid_t tids[4];

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void name(const char *n, int slot)
{
	pthread_setname_np(pthread_self(), n);
	tids[slot] = (pid_t)syscall(SYS_gettid);
}

/* The asm after each call keeps it a call, not a tail jump. */
__attribute__((noinline)) void wait_in_read(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("offwait: read");
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void wait_in_nanosleep(long ms)
{
	struct timespec ts = { 0, ms * 1000 * 1000 };

	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void wait_in_fdatasync(int fd, const char *buf, size_t len)
{
	if (pwrite(fd, buf, len, 0) != (ssize_t)len || fdatasync(fd))
		die("offwait: write and fdatasync");
	__asm__ volatile("" ::: "memory");
}

static void *reader(void *arg)
{
	name("reader", 0);
	for (long i = 0; i < rounds; i++)
		wait_in_read(pipefd[0]);
	return arg;
}

static void *writer(void *arg)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };

	name("writer", 1);
	for (long i = 0; i < rounds; i++) {
		nanosleep(&ts, NULL);
		if (write(pipefd[1], "x", 1) != 1)
			die("offwait: write");
	}
	return arg;
}

static void *sleeper(void *arg)
{
	name("sleeper", 2);
	for (long i = 0; i < rounds; i++)
		wait_in_nanosleep(5);
	return arg;
}

static void *syncer(void *arg)
{
	static char buf[64 * 1024];
	int fd;

	name("syncer", 3);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("offwait: open");
	for (long i = 0; i < rounds; i++) {
		memset(buf, (int)i, sizeof(buf));
		wait_in_fdatasync(fd, buf, sizeof(buf));
	}
	close(fd);
	return arg;
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { reader, writer, sleeper, syncer };
	pthread_t t[4];

	if (argc > 1)
		rounds = strtol(argv[1], NULL, 10);
	if (argc > 2)
		path = argv[2];
	if (pipe(pipefd) < 0)
		die("offwait: pipe");
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL))
			die("offwait: pthread_create");
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	unlink(path);
	printf("offwait: tgid=%d reader=%d writer=%d sleeper=%d syncer=%d\n", (int)getpid(),
	       (int)tids[0], (int)tids[1], (int)tids[2], (int)tids[3]);
	return 0;
}
