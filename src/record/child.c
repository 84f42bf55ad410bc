// SPDX-License-Identifier: MIT
/*
 * Fork/exec with a start gate.  The child takes its user's identity, says
 * how that went (an int on the error pipe, 0 when fine), then blocks reading
 * the gate until the parent has tracing on, so its very first events are
 * recorded.  The close-on-exec error pipe then carries exec's errno back:
 * EOF means the exec worked.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/child.h"

static int check_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -ENOENT;
	if (S_ISDIR(st.st_mode) || access(path, X_OK) < 0)
		return -EACCES;
	return 0;
}

int f2t_child_lookup(const char *argv0)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX], dflt[256];
	int best = -ENOENT;

	if (!*argv0)
		return -ENOENT;
	if (strchr(argv0, '/'))
		return check_file(argv0);
	if (!path) {
		/* what execvp() searches when PATH is unset */
		if (!confstr(_CS_PATH, dflt, sizeof(dflt)))
			snprintf(dflt, sizeof(dflt), "/bin:/usr/bin");
		path = dflt;
	}
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p), r;

		snprintf(buf, sizeof(buf), "%.*s%s%s", len, p, len ? "/" : "./", argv0);
		r = check_file(buf);
		if (!r)
			return 0;
		if (r == -EACCES)
			best = r;
		if (!*end)
			break;
		p = end;
	}
	return best;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)pid;
	return -1;
#endif
}

static void child_main(int gate, int errpipe, char *const argv[], const struct f2t_runas *ra,
		       const struct f2t_tty *tty)
{
	char go = 0;
	int e;

	/* We ignore SIGPIPE; the command must not inherit that. */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	e = -f2t_tty_child(tty);
	if (!e)
		e = -f2t_runas_apply(ra);
	if (write(errpipe, &e, sizeof(e)) != (ssize_t)sizeof(e) || e)
		_exit(126);
	while (read(gate, &go, 1) < 0 && errno == EINTR)
		;
	if (go != 'g')
		_exit(127);	/* the recorder gave up before starting us */
	close(gate);
	execvp(argv[0], argv);
	e = errno;
	if (write(errpipe, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(e == ENOENT ? 127 : 126);
}

/* The child's first word: could it become its user?  0 or negative errno. */
static int read_drop_result(struct f2t_child *c)
{
	ssize_t n;
	int e = 0;

	do
		n = read(c->errpipe, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e) && !e)
		return 0;
	c->drop_failed = true;
	while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->exited = true;
	return -(n == (ssize_t)sizeof(e) ? e : EIO);
}

int f2t_child_spawn(struct f2t_child *c, char *const argv[], const struct f2t_runas *ra,
		    struct f2t_tty *tty)
{
	int gate[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->gate = c->errpipe = c->pidfd = -1;
	if (pipe2(gate, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
		err = -errno;
		goto out;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		c->pid = 0;
		goto out;
	}
	if (c->pid == 0) {
		close(gate[1]);
		close(errp[0]);
		child_main(gate[0], errp[1], argv, ra, tty);
	}
	c->own_session = tty->own_session;
	f2t_tty_forked(tty, c->pid);
	c->gate = gate[1];
	c->errpipe = errp[0];
	gate[1] = errp[0] = -1;
	c->pidfd = open_pidfd(c->pid);
	close(errp[1]);
	errp[1] = -1;	/* so that a child gone before it wrote gives EOF */
	err = read_drop_result(c);
out:
	for (int i = 0; i < 2; i++) {
		if (gate[i] >= 0)
			close(gate[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	return err;
}

int f2t_child_release(struct f2t_child *c)
{
	ssize_t n;
	int e = 0;

	if (write(c->gate, "g", 1) != 1)
		return -errno;
	close(c->gate);
	c->gate = -1;
	do
		n = read(c->errpipe, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->errpipe);
	c->errpipe = -1;
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
			;
		c->exited = true;
		return -(e ? e : EIO);
	}
	return 0;
}

bool f2t_child_check(struct f2t_child *c)
{
	int st;

	if (!c->pid || c->exited)
		return c->exited;
	if (waitpid(c->pid, &st, WNOHANG | (c->own_session ? WUNTRACED : 0)) != c->pid)
		return false;
	if (WIFSTOPPED(st)) {
		c->stopped = WSTOPSIG(st);
		return false;
	}
	c->status = st;
	c->exited = true;
	return true;
}

void f2t_child_signal(const struct f2t_child *c, int sig)
{
	if (c->pid && !c->exited && c->own_session)
		kill(-c->pid, sig);
}

static bool wait_for(struct f2t_child *c, int ms)
{
	for (int waited = 0; waited < ms; waited += 20) {
		if (f2t_child_check(c))
			return true;
		poll(NULL, 0, 20);
	}
	return f2t_child_check(c);
}

void f2t_child_finish(struct f2t_child *c)
{
	if (!c->pid)
		return;
	if (c->gate >= 0) {
		/* never released: EOF on the gate makes it exit without exec */
		close(c->gate);
		c->gate = -1;
	} else if (!f2t_child_check(c)) {
		kill(c->pid, SIGTERM);
		if (!wait_for(c, 2000))
			kill(c->pid, SIGKILL);
	}
	while (!c->exited && waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->exited = true;
	if (c->errpipe >= 0)
		close(c->errpipe);
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->errpipe = c->pidfd = -1;
}

int f2t_child_exit_code(const struct f2t_child *c)
{
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	if (WIFSIGNALED(c->status))
		return 128 + WTERMSIG(c->status);
	return 1;
}
