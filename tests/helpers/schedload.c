// SPDX-License-Identifier: MIT
/*
 * schedload: workloads whose scheduling is known, for checking a report
 * against what the threads measured themselves.
 *
 *   schedload busy-sleep BUSY_MS SLEEP_MS N
 *	one thread, "busysleep", N times: runs until it has used BUSY_MS of
 *	CPU, then sleeps SLEEP_MS (nanosleep).
 *   schedload compete MS
 *	two threads, "compete0" and "compete1", both pinned to CPU 0, spin
 *	for MS of wall time, started together: each waits for the CPU (as
 *	runnable) about as long as it runs.
 *   schedload rivals WORK_MS N
 *	"victim", pinned to CPU 0, runs until it has used WORK_MS of CPU
 *	while N threads "rival", pinned to CPU 0 too, spin until it is done:
 *	it waits for the CPU about N times WORK_MS.  Meanwhile "bystander",
 *	pinned to CPU 1, is busy 5 ms of CPU then asleep 10 ms, 20 times,
 *	whatever N is.
 *
 * Each thread prints one line when it ends, as the kernel saw it:
 *   THREADNAME tid=T cpu_ns=C life_ns=L start_ns=W sleep_ns=S nvcsw=V nivcsw=I
 * cpu_ns from CLOCK_THREAD_CPUTIME_ID (the kernel's own runtime of the
 * thread), life_ns from its first to its last instruction, start_ns from
 * just before pthread_create() to its first instruction (its first wait for
 * a CPU, and a little more), sleep_ns the wall time inside nanosleep, nvcsw
 * and nivcsw from getrusage(RUSAGE_THREAD).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long busy_ms, sleep_ms, rounds, compete_ms, work_ms;
static pthread_barrier_t start;
static struct timespec deadline;
static long long created;	/* CLOCK_MONOTONIC just before pthread_create() */

static long long ns_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void report(const char *name, long long born, long long sleep_ns)
{
	struct rusage ru;
	long long cpu = ns_of(CLOCK_THREAD_CPUTIME_ID), now = ns_of(CLOCK_MONOTONIC);

	getrusage(RUSAGE_THREAD, &ru);
	printf("%s tid=%ld cpu_ns=%lld life_ns=%lld start_ns=%lld sleep_ns=%lld nvcsw=%ld nivcsw=%ld\n",
	       name, (long)syscall(SYS_gettid), cpu, now - born, born - created, sleep_ns,
	       ru.ru_nvcsw, ru.ru_nivcsw);
	fflush(stdout);
}

static void *busy_sleep(void *arg)
{
	long long born = ns_of(CLOCK_MONOTONIC), slept = 0;
	struct timespec nap = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000 };

	if (!arg)
		pthread_setname_np(pthread_self(), "busysleep");
	for (long i = 0; i < rounds; i++) {
		long long until = ns_of(CLOCK_THREAD_CPUTIME_ID) + busy_ms * 1000000ll, t;

		while (ns_of(CLOCK_THREAD_CPUTIME_ID) < until)
			;
		t = ns_of(CLOCK_MONOTONIC);
		nanosleep(&nap, NULL);
		slept += ns_of(CLOCK_MONOTONIC) - t;
	}
	report(arg ? "bystander" : "busysleep", born, slept);
	return NULL;
}

static void *compete(void *arg)
{
	long long born = ns_of(CLOCK_MONOTONIC);
	char name[16];
	cpu_set_t one;

	snprintf(name, sizeof(name), "compete%ld", (long)(size_t)arg);
	pthread_setname_np(pthread_self(), name);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("schedload: sched_setaffinity");
		exit(1);
	}
	pthread_barrier_wait(&start);
	for (;;) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
			break;
	}
	report(name, born, 0);
	return NULL;
}

static volatile int victim_done;

static void pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("schedload: sched_setaffinity");
		exit(1);
	}
}

static void *victim(void *arg)
{
	long long born = ns_of(CLOCK_MONOTONIC), until;

	pthread_setname_np(pthread_self(), "victim");
	pin(0);
	pthread_barrier_wait(&start);
	until = ns_of(CLOCK_THREAD_CPUTIME_ID) + work_ms * 1000000ll;
	while (ns_of(CLOCK_THREAD_CPUTIME_ID) < until)
		;
	victim_done = 1;
	report("victim", born, 0);
	return NULL;
}

static void *rival(void *arg)
{
	long long born = ns_of(CLOCK_MONOTONIC);

	pthread_setname_np(pthread_self(), "rival");
	pin(0);
	pthread_barrier_wait(&start);
	while (!victim_done)
		;
	report("rival", born, 0);
	return NULL;
}

static void *bystander(void *arg)
{
	pthread_setname_np(pthread_self(), "bystander");
	pin(1);
	return busy_sleep(arg);
}

static long arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v <= 0) {
		fprintf(stderr, "schedload: '%s' is not a positive number\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc == 5 && !strcmp(argv[1], "busy-sleep")) {
		busy_ms = arg(argv[2]);
		sleep_ms = arg(argv[3]);
		rounds = arg(argv[4]);
		created = ns_of(CLOCK_MONOTONIC);
		if (pthread_create(&t[0], NULL, busy_sleep, NULL))
			return 1;
		pthread_join(t[0], NULL);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "compete")) {
		compete_ms = arg(argv[2]);
		pthread_barrier_init(&start, NULL, 3);
		created = ns_of(CLOCK_MONOTONIC);
		for (size_t i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, compete, (void *)i))
				return 1;
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += compete_ms / 1000;
		deadline.tv_nsec += (compete_ms % 1000) * 1000000;
		if (deadline.tv_nsec >= 1000000000) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000;
		}
		pthread_barrier_wait(&start);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "rivals")) {
		long n = arg(argv[3]);
		pthread_t v, b, r[16];

		if (n > 16) {
			fprintf(stderr, "schedload: 16 rivals at most\n");
			return 2;
		}
		work_ms = arg(argv[2]);
		pthread_barrier_init(&start, NULL, (unsigned int)n + 1);
		created = ns_of(CLOCK_MONOTONIC);
		busy_ms = 5;
		sleep_ms = 10;
		rounds = 20;
		if (pthread_create(&b, NULL, bystander, (void *)1))
			return 1;
		for (long i = 0; i < n; i++)
			if (pthread_create(&r[i], NULL, rival, NULL))
				return 1;
		if (pthread_create(&v, NULL, victim, NULL))
			return 1;
		pthread_join(v, NULL);
		for (long i = 0; i < n; i++)
			pthread_join(r[i], NULL);
		pthread_join(b, NULL);
		return 0;
	}
	fprintf(stderr, "usage: schedload busy-sleep BUSY_MS SLEEP_MS N | compete MS | rivals WORK_MS N\n");
	return 2;
}
