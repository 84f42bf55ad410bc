// SPDX-License-Identifier: MIT
/* Async-signal-safe by construction: the handler only stores and write()s. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "record/signals.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static int self_pipe[2] = { -1, -1 };
static volatile sig_atomic_t first_signal, from_kernel, snapshots_asked;

static void on_stop(int sig, siginfo_t *info, void *ctx)
{
	int saved = errno;

	(void)ctx;
	if (!first_signal) {
		from_kernel = info && info->si_code == SI_KERNEL;
		first_signal = sig;
	}
	if (self_pipe[1] >= 0 && write(self_pipe[1], "s", 1) < 0) {
		/* full pipe: the loop is already awake */
	}
	errno = saved;
}

static void on_snapshot(int sig)
{
	int saved = errno;

	(void)sig;
	snapshots_asked++;
	if (self_pipe[1] >= 0 && write(self_pipe[1], "u", 1) < 0) {
		/* full pipe: the loop is already awake */
	}
	errno = saved;
}

int f2t_sig_install_snapshot(void)
{
	struct sigaction sa = { .sa_handler = on_snapshot };

	sigemptyset(&sa.sa_mask);
	return sigaction(SIGUSR1, &sa, NULL) < 0 ? -errno : 0;
}

bool f2t_sig_take_snapshot(void)
{
	sig_atomic_t n = snapshots_asked;

	snapshots_asked = 0;
	return n != 0;
}

int f2t_sig_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_stop, .sa_flags = SA_SIGINFO };
	struct sigaction ign = { .sa_handler = SIG_IGN };

	if (self_pipe[0] < 0 && pipe2(self_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	/* No SA_RESTART: a signal should cut a blocking call short. */
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (sigaction(stop_signals[i], &sa, NULL) < 0)
			return -errno;
	/* A closed output pipe must give EPIPE, not kill us with the instance up. */
	sigaction(SIGPIPE, &ign, NULL);
	return 0;
}

int f2t_sig_fd(void)
{
	return self_pipe[0];
}

int f2t_sig_received(void)
{
	return first_signal;
}

bool f2t_sig_from_kernel(void)
{
	return first_signal && from_kernel;
}

void f2t_sig_restore(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGUSR1, &dfl, NULL);
	for (int i = 0; i < 2; i++) {
		if (self_pipe[i] >= 0)
			close(self_pipe[i]);
		self_pipe[i] = -1;
	}
}
