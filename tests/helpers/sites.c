// SPDX-License-Identifier: MIT
/*
 * sites [N]: a thread that blocks where a cache of off-CPU stacks could
 * take one place for another, for the off-CPU tests.  N rounds (default 40)
 * of, in thread "sites":
 *   read_from(pipe), then read_from(socket): read() from one function (the
 *              same user registers and callers; the kernel paths differ),
 *              each woken by thread "feeder", which writes a byte to the
 *              pipe, then to the socket, 3 ms apart: every read blocks;
 *   sleep_a(), then sleep_b(): nanosleep 1 ms from two functions called
 *              from one loop at one depth (the same user registers at the
 *              system call; the callers differ).
 * Built with frame pointers, like every helper.  On exit it prints one line
 * the tests parse:
 *   sites: tgid=X sites=TID feeder=TID
 */
#define _GNU_SOURCE	/* pthread_setname_np */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long rounds = 40;
static int pipefd[2], sockfd[2];
static pid_t feeder_tid;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) void sleep_a(void)
{
	sleep_ms(1);
	__asm__ volatile("" ::: "memory");	/* no tail call: keep this frame */
}

__attribute__((noinline)) void sleep_b(void)
{
	sleep_ms(1);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void read_from(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("sites: read");
	__asm__ volatile("" ::: "memory");
}

static void *feeder(void *arg)
{
	pthread_setname_np(pthread_self(), "feeder");
	feeder_tid = (pid_t)syscall(SYS_gettid);
	for (long i = 0; i < rounds; i++) {
		sleep_ms(3);
		if (write(pipefd[1], "x", 1) != 1)
			die("sites: write pipe");
		sleep_ms(3);
		if (write(sockfd[1], "x", 1) != 1)
			die("sites: write socket");
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int fds[2] = { 0, 0 };

	if (argc > 1)
		rounds = strtol(argv[1], NULL, 10);
	if (pipe(pipefd) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sockfd) < 0)
		die("sites: pipe");
	pthread_setname_np(pthread_self(), "sites");
	if (pthread_create(&t, NULL, feeder, NULL))
		die("sites: pthread_create");
	fds[0] = pipefd[0];
	fds[1] = sockfd[0];
	for (long i = 0; i < 2 * rounds; i++) {
		read_from(fds[i & 1]);	/* one call site for both */
		if (i & 1) {
			sleep_a();
			sleep_b();
		}
	}
	pthread_join(t, NULL);
	printf("sites: tgid=%d sites=%d feeder=%d\n", (int)getpid(), (int)getpid(), (int)feeder_tid);
	return 0;
}
