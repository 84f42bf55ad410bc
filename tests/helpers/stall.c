// SPDX-License-Identifier: MIT
/*
 * stall [SECONDS [STALL_MS [busy|late|other]]]: one rare scheduling stall.  A
 * thread named "stall-worker" wakes every 2 ms for SECONDS (default 8); once, at a
 * random moment between 2.5 s and SECONDS - 1.5 s, a thread named
 * "stall-hog" becomes SCHED_FIFO and spins STALL_MS (default 40) on the
 * worker's CPU, so one of the worker's wakeups waits that long to run.
 * Both are pinned to CPU 0.  The worker is SCHED_FIFO too, below the hog
 * (when allowed): no other load on the machine delays it by milliseconds,
 * so the hog's is the one long wait.  Right after the spin it prints
 *   stall: worker=TID hog=TID from=NS to=NS
 * (CLOCK_MONOTONIC, ns), then, at the end,
 *   stall: worst wait W us, N wakeups
 * where a wait is how late the worker ran after its 2 ms.
 *
 * With "busy" the worker never sleeps: it spins (SCHED_OTHER, so that the
 * hog, still SCHED_OTHER when it wakes, gets the CPU), and the hog preempts
 * it: one long wait to run that no wakeup began.  With "late" the worker
 * first sleeps until 5 ms into the spin, so that its first wakeup is the
 * one that waits (a recorder attached with -p meanwhile sees it asleep).
 * With "other" the worker stays SCHED_OTHER: its long wait is in the fair
 * class's run queue, not the real-time one.
 */
#define _GNU_SOURCE	/* pthread_setname_np, CPU_SET */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_NS 2000000ll

static double seconds = 8;
static long stall_ms = 40;
static volatile pid_t worker_tid;
static int busy, late_start, other;
static int64_t hog_from;	/* when the hog begins to spin, CLOCK_MONOTONIC ns */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("stall: sched_setaffinity");
}

static void fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("stall: SCHED_FIFO (the worker stays SCHED_OTHER)");
}

static void *worker(void *arg)
{
	int64_t end = now_ns() + (int64_t)(seconds * 1e9), worst = 0, n = 0;
	struct timespec next;

	(void)arg;
	pthread_setname_np(pthread_self(), "stall-worker");
	worker_tid = (pid_t)syscall(SYS_gettid);
	pin_cpu0();
	if (busy) {
		while (now_ns() < end)
			;
		printf("stall: worst wait 0 us, 0 wakeups (busy)\n");
		return NULL;
	}
	if (!other)
		fifo(10);
	clock_gettime(CLOCK_MONOTONIC, &next);
	if (late_start) {
		next.tv_sec = (time_t)((hog_from + 5000000) / 1000000000);
		next.tv_nsec = (long)((hog_from + 5000000) % 1000000000);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	while (now_ns() < end) {
		int64_t due, late;

		next.tv_nsec += PERIOD_NS;
		if (next.tv_nsec >= 1000000000l) {
			next.tv_nsec -= 1000000000l;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		due = (int64_t)next.tv_sec * 1000000000ll + next.tv_nsec;
		late = now_ns() - due;
		if (late > worst)
			worst = late;
		n++;
	}
	printf("stall: worst wait %lld us, %lld wakeups\n", (long long)(worst / 1000), (long long)n);
	return NULL;
}

static void *hog(void *arg)
{
	struct timespec ts = { (time_t)(hog_from / 1000000000), (long)(hog_from % 1000000000) };
	int64_t from, until;

	(void)arg;
	pthread_setname_np(pthread_self(), "stall-hog");
	pin_cpu0();
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	fifo(50);
	from = now_ns();
	until = from + stall_ms * 1000000ll;
	while (now_ns() < until)
		;
	printf("stall: worker=%d hog=%d from=%lld to=%lld\n", (int)worker_tid,
	       (int)syscall(SYS_gettid), (long long)from, (long long)now_ns());
	fflush(stdout);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, h;

	if (argc > 1)
		seconds = atof(argv[1]);
	if (argc > 2)
		stall_ms = atol(argv[2]);
	busy = argc > 3 && !strcmp(argv[3], "busy");
	late_start = argc > 3 && !strcmp(argv[3], "late");
	other = argc > 3 && !strcmp(argv[3], "other");
	if (seconds < 4 || stall_ms < 1 || (argc > 3 && !busy && !late_start && !other)) {
		fprintf(stderr, "usage: stall [SECONDS (4 or more) [STALL_MS [busy|late|other]]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	srand((unsigned int)(now_ns() ^ getpid()));
	hog_from = now_ns() + (int64_t)((2.5 + (seconds - 4.0) * ((double)rand() / RAND_MAX)) * 1e9);
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&h, NULL, hog, NULL);
	pthread_join(h, NULL);
	pthread_join(w, NULL);
	return 0;
}
