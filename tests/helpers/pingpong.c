// SPDX-License-Identifier: MIT
/*
 * pingpong [N]: two threads of one process, named "ping" and "pong", bounce
 * one byte over two pipes N times (default 10000).  Every round trip is two
 * wake-ups and at least two context switches, so this is the worst case for
 * a scheduling recorder.  On exit it prints one line the tests and the
 * benchmark parse:
 *   pingpong: N round trips in S s (R/s) tgid=X ping=TID pong=TID cpu=C
 * where C is the CPU time the process used, user and system, in seconds
 * (what a recorder adds in the workload's context, without the time the
 * workload spent waiting).
 */
#define _GNU_SOURCE	/* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int to_pong[2], to_ping[2];
static long rounds = 10000;
static pid_t ping_tid, pong_tid;

static void xfer(int rfd, int wfd, int first)
{
	char c = 'x';

	if (!first && read(rfd, &c, 1) != 1) {
		perror("pingpong: read");
		exit(1);
	}
	if (write(wfd, &c, 1) != 1) {
		perror("pingpong: write");
		exit(1);
	}
}

static void *pong(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "pong");
	pong_tid = (pid_t)syscall(SYS_gettid);
	for (long i = 0; i < rounds; i++)
		xfer(to_pong[0], to_ping[1], 0);
	return NULL;
}

static void *ping(void *arg)
{
	char c;

	(void)arg;
	pthread_setname_np(pthread_self(), "ping");
	ping_tid = (pid_t)syscall(SYS_gettid);
	for (long i = 0; i < rounds; i++) {
		xfer(-1, to_pong[1], 1);
		if (read(to_ping[0], &c, 1) != 1) {
			perror("pingpong: read");
			exit(1);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	pthread_t a, b;
	struct rusage ru;
	double secs;

	if (argc > 1) {
		char *end;

		rounds = strtol(argv[1], &end, 10);
		if (*end || rounds <= 0) {
			fprintf(stderr, "usage: pingpong [ROUND_TRIPS]\n");
			return 2;
		}
	}
	if (pipe(to_pong) < 0 || pipe(to_ping) < 0) {
		perror("pingpong: pipe");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pthread_create(&b, NULL, pong, NULL) || pthread_create(&a, NULL, ping, NULL)) {
		fprintf(stderr, "pingpong: cannot create threads\n");
		return 1;
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	getrusage(RUSAGE_SELF, &ru);
	printf("pingpong: %ld round trips in %.3f s (%.0f/s) tgid=%d ping=%d pong=%d "
	       "cpu=%.6f\n", rounds, secs, secs > 0 ? (double)rounds / secs : 0.0,
	       (int)getpid(), (int)ping_tid, (int)pong_tid,
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return 0;
}
