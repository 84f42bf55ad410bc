// SPDX-License-Identifier: MIT
/*
 * A CPU-bound workload with a known profile, for the sampling tests and
 * benchmarks:
 *   burn [SECONDS]           three quarters of the time in burn_three(),
 *                            one quarter in burn_one() (by the clock)
 *   burn --syscalls SECONDS  a write(2) loop to /dev/null: kernel frames
 *   burn --work MROUNDS      a fixed amount of work (3:1 again, by rounds)
 *                            timed by itself, for overhead benchmarks
 * Built with frame pointers, so the kernel can walk the user stack.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Spins until UNTIL, reading the clock every few thousand rounds. */
static __attribute__((noinline)) void spin(uint64_t until)
{
	do {
		for (int i = 0; i < 4096; i++)
			sink = sink * 6364136223846793005ull + 1442695040888963407ull;
	} while (now_ns() < until);
}

__attribute__((noinline)) void burn_three(uint64_t ns)
{
	spin(now_ns() + ns);
	sink++;
}

__attribute__((noinline)) void burn_one(uint64_t ns)
{
	spin(now_ns() + ns);
	sink++;
}

static int syscalls(double secs)
{
	int fd = open("/dev/null", O_WRONLY);
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9), n = 0;
	char buf[64] = { 0 };

	if (fd < 0)
		return 1;
	while (now_ns() < end) {
		for (int i = 0; i < 256; i++)
			if (write(fd, buf, sizeof(buf)) < 0)
				return 1;
		n += 256;
	}
	close(fd);
	printf("burn: %llu writes\n", (unsigned long long)n);
	return 0;
}

static __attribute__((noinline)) void work_three(uint64_t n)
{
	for (uint64_t i = 0; i < 3 * n; i++)
		sink = sink * 6364136223846793005ull + 1442695040888963407ull;
}

static __attribute__((noinline)) void work_one(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		sink = sink * 6364136223846793005ull + 1442695040888963407ull;
}

/* MROUNDS million rounds of work; prints the time the work itself took. */
static int work(double mrounds)
{
	uint64_t t0 = now_ns(), rounds = (uint64_t)(mrounds * 1e6 / 4096);

	for (uint64_t r = 0; r < rounds; r++) {
		work_three(1024);
		work_one(1024);
	}
	printf("burn: work %.0f M rounds in %llu us\n", mrounds,
	       (unsigned long long)((now_ns() - t0) / 1000));
	return 0;
}

int main(int argc, char **argv)
{
	double secs = 2.0;
	uint64_t end, rounds = 0;

	if (argc > 2 && !strcmp(argv[1], "--syscalls"))
		return syscalls(atof(argv[2]));
	if (argc > 2 && !strcmp(argv[1], "--work"))
		return work(atof(argv[2]));
	if (argc > 1)
		secs = atof(argv[1]);
	end = now_ns() + (uint64_t)(secs * 1e9);
	/* 3 ms then 1 ms: both run many times per 100 ms, so short runs keep the 3:1. */
	while (now_ns() < end) {
		burn_three(3000000);
		burn_one(1000000);
		rounds++;
	}
	printf("burn: %llu rounds of 3+1 ms\n", (unsigned long long)rounds);
	return 0;
}
