// SPDX-License-Identifier: MIT
/*
 * threads [N]: N threads (default 3000), one after another, each spinning
 * a few microseconds and exiting: a sampled run catches some of them late
 * in their exit, where the kernel no longer gives a sample the thread's id.
 * On exit it prints one line the tests parse:
 *   threads: tgid=X threads=N
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *spin(void *arg)
{
	volatile long x = 0;

	for (long i = 0; i < 20000; i++)
		x += i;
	return arg;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 3000;

	for (long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, spin, NULL)) {
			perror("threads: pthread_create");
			return 1;
		}
		pthread_join(t, NULL);
	}
	printf("threads: tgid=%d threads=%ld\n", (int)getpid(), n);
	return 0;
}
