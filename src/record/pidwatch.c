// SPDX-License-Identifier: MIT
/*
 * pidfds signal a process's end to poll() without being its parent, so the
 * main loop sleeps until something happens instead of polling /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/pidwatch.h"
#include "util/log.h"

static bool exists(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

int f2t_pidwatch_open(struct f2t_pidwatch *w, const pid_t *pids, size_t n)
{
	int err = 0;

	memset(w, 0, sizeof(*w));
	w->pids = calloc(n ? n : 1, sizeof(*w->pids));
	w->fds = calloc(n ? n : 1, sizeof(*w->fds));
	w->gone = calloc(n ? n : 1, sizeof(*w->gone));
	if (!w->pids || !w->fds || !w->gone) {
		err = -ENOMEM;
		goto out;
	}
	w->n = n;
	for (size_t i = 0; i < n; i++) {
		w->pids[i] = pids[i];
		w->fds[i] = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!exists(pids[i])) {
			f2t_err("-p %d: no such process", (int)pids[i]);
			err = -ESRCH;
			goto out;
		}
#ifdef SYS_pidfd_open
		w->fds[i] = (int)syscall(SYS_pidfd_open, pids[i], 0);
		if (w->fds[i] >= 0)
			fcntl(w->fds[i], F_SETFD, FD_CLOEXEC);
#endif
	}
out:
	if (err)
		f2t_pidwatch_close(w);
	return err;
}

size_t f2t_pidwatch_alive(struct f2t_pidwatch *w)
{
	size_t alive = 0;

	for (size_t i = 0; i < w->n; i++) {
		if (!w->gone[i]) {
			if (w->fds[i] >= 0) {
				struct pollfd pfd = { .fd = w->fds[i], .events = POLLIN };

				w->gone[i] = poll(&pfd, 1, 0) > 0;
			} else {
				w->gone[i] = !exists(w->pids[i]);
			}
		}
		alive += !w->gone[i];
	}
	return alive;
}

void f2t_pidwatch_close(struct f2t_pidwatch *w)
{
	for (size_t i = 0; w->fds && i < w->n; i++)
		if (w->fds[i] >= 0)
			close(w->fds[i]);
	free(w->pids);
	free(w->fds);
	free(w->gone);
	memset(w, 0, sizeof(*w));
}
