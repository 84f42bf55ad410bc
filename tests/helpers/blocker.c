// SPDX-License-Identifier: MIT
/*
 * blocker [N] [FILE]: threads that block in known places, for the off-CPU
 * tests.  N rounds (default 20) of:
 *   "piperd"   blocks in read() on a pipe; "pipewr" writes one byte every
 *              10 ms, so each read blocks about 10 ms and pipewr wakes it
 *   "sleeper"  nanosleep()s 5 ms
 *   "syncer"   writes 64 KB to FILE (default ./blocker.dat, removed at the
 *              end) and fdatasync()s it: blocks in D state on the disk
 * Each blocking call is made from a function named for it, through one
 * more noinline call: the kernel walks user stacks by frame pointers, and
 * the libc wrapper, built without them, hides its own caller, not the
 * caller's caller.  On exit it prints one line the tests parse:
 *   blocker: tgid=X piperd=TID pipewr=TID sleeper=TID syncer=TID
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
static const char *path = "blocker.dat";
static int pipefd[2];
static pid_t tids[4];

static void name(const char *n, int slot)
{
	pthread_setname_np(pthread_self(), n);
	tids[slot] = (pid_t)syscall(SYS_gettid);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

__attribute__((noinline)) static void read_one(void)
{
	char c;

	if (read(pipefd[0], &c, 1) != 1)
		die("blocker: read");
}

__attribute__((noinline)) void blocker_pipe_read(void)
{
	read_one();
	__asm__ volatile("" ::: "memory");	/* no tail call: keep this frame */
}

__attribute__((noinline)) static void sleep_one(void)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) void blocker_nanosleep(void)
{
	sleep_one();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void sync_one(int fd)
{
	if (fdatasync(fd) < 0)
		die("blocker: fdatasync");
}

__attribute__((noinline)) void blocker_fdatasync(int fd)
{
	sync_one(fd);
	__asm__ volatile("" ::: "memory");
}

static void *piperd(void *arg)
{
	name("piperd", 0);
	for (long i = 0; i < rounds; i++)
		blocker_pipe_read();
	return arg;
}

static void *pipewr(void *arg)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	name("pipewr", 1);
	for (long i = 0; i < rounds; i++) {
		nanosleep(&ts, NULL);
		if (write(pipefd[1], "x", 1) != 1)
			die("blocker: write");
	}
	return arg;
}

static void *sleeper(void *arg)
{
	name("sleeper", 2);
	for (long i = 0; i < rounds; i++)
		blocker_nanosleep();
	return arg;
}

static void *syncer(void *arg)
{
	static char buf[64 * 1024];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	name("syncer", 3);
	if (fd < 0)
		die("blocker: open");
	for (long i = 0; i < rounds; i++) {
		memset(buf, (int)i, sizeof(buf));
		if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
			die("blocker: pwrite");
		blocker_fdatasync(fd);
	}
	close(fd);
	return arg;
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { piperd, pipewr, sleeper, syncer };
	pthread_t t[4];

	if (argc > 1) {
		char *end;

		rounds = strtol(argv[1], &end, 10);
		if (*end || rounds <= 0) {
			fprintf(stderr, "usage: blocker [ROUNDS] [FILE]\n");
			return 2;
		}
	}
	if (argc > 2)
		path = argv[2];
	if (pipe(pipefd) < 0)
		die("blocker: pipe");
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL)) {
			fprintf(stderr, "blocker: cannot create threads\n");
			return 1;
		}
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	unlink(path);
	printf("blocker: tgid=%d piperd=%d pipewr=%d sleeper=%d syncer=%d\n", (int)getpid(),
	       (int)tids[0], (int)tids[1], (int)tids[2], (int)tids[3]);
	return 0;
}
