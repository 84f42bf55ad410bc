// SPDX-License-Identifier: MIT
/*
 * The pseudo-terminal relay.  Our terminal's descriptors are shared with
 * the shell that started us, so they stay blocking: they are only read or
 * written after poll() says they are ready.  The master is ours alone and
 * non-blocking.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/ttyrelay.h"

#define FINISH_ROUNDS 256	/* at most this many buffers copied at the end */
#define FINISH_WAIT_MS 1000	/* for our terminal to take more output */
#define FINISH_SECONDS 3	/* for all of it */
#define FD_SCAN 1024		/* descriptors checked when /proc is not there */

static volatile sig_atomic_t winch;
static struct sigaction old_winch;

static void on_winch(int sig)
{
	(void)sig;
	winch = 1;
}

/* The terminal FD refers to, even when opened as /dev/tty or /dev/console; 0: none. */
static dev_t tty_dev(int fd)
{
	unsigned int dev;
	struct stat st;

	if (!isatty(fd))
		return 0;
#ifdef TIOCGDEV
	if (ioctl(fd, TIOCGDEV, &dev) == 0)
		return (dev_t)dev;
#endif
	return fstat(fd, &st) == 0 ? st.st_rdev : 0;
}

static bool same_tty(int fd, dev_t rdev)
{
	return tty_dev(fd) == rdev;
}

/* The slave, found from the master itself rather than by a path name. */
/* The descriptor of MASTER's slave, or a negative errno. */
static int open_slave(int master)
{
	char name[64];
	int fd, err;

#ifdef TIOCGPTPEER
	fd = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 || errno != EINVAL)
		return fd >= 0 ? fd : -errno;
#endif
	err = ptsname_r(master, name, sizeof(name));
	if (err)
		return -err;
	fd = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

int f2t_tty_open(struct f2t_tty *t, bool own_session, uid_t owner)
{
	struct termios modes;
	struct winsize ws;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->master = t->slave = t->term = t->term_out = -1;
	t->own_session = own_session;
	if (!own_session)
		return 0;
	for (int fd = 0; fd < 3 && t->term < 0; fd++) {
		t->rdev = tty_dev(fd);
		if (t->rdev)
			t->term = fd;
	}
	if (t->term < 0)
		return 0;
	for (int fd = 0; fd < 3; fd++)
		t->on_slave[fd] = same_tty(fd, t->rdev);
	t->input = t->term == STDIN_FILENO;
	t->term_out = t->on_slave[1] ? 1 : t->on_slave[2] ? 2 : t->term;
	if (tcgetattr(t->term, &t->saved) < 0) {
		err = -errno;
		goto out;
	}
	t->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (t->master < 0 || grantpt(t->master) < 0 || unlockpt(t->master) < 0) {
		err = -errno;
		goto out;
	}
	err = open_slave(t->master);
	if (err < 0)
		goto out;
	t->slave = err;
	err = 0;
	modes = t->saved;
	/* Output only: our terminal does its own output processing. */
	if (!t->input)
		modes.c_oflag &= ~(tcflag_t)OPOST;
	if (tcsetattr(t->slave, TCSANOW, &modes) < 0 ||
	    fchown(t->slave, owner, (gid_t)-1) < 0 || fchmod(t->slave, 0620) < 0 ||
	    fcntl(t->master, F_SETFL, O_NONBLOCK) < 0) {
		err = -errno;
		goto out;
	}
	if (ioctl(t->term, TIOCGWINSZ, &ws) == 0)
		ioctl(t->slave, TIOCSWINSZ, &ws);
out:
	if (err)
		f2t_tty_close(t);
	return err;
}

/* A descriptor of our terminal above 2, passed on by whoever started us, is as good as 0. */
static int cover_high_fds(const struct f2t_tty *t)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int err = 0;

	if (!d) {
		for (int fd = 3; fd < FD_SCAN && !err; fd++)
			if (fd != t->slave && same_tty(fd, t->rdev) && dup2(t->slave, fd) < 0)
				err = -errno;
		return err;
	}
	while (!err && (e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (fd > 2 && fd != t->slave && fd != dirfd(d) && same_tty(fd, t->rdev) &&
		    dup2(t->slave, fd) < 0)
			err = -errno;
	}
	closedir(d);
	return err;
}

int f2t_tty_child(const struct f2t_tty *t)
{
	int err;

	if (!t->own_session)
		return 0;
	if (setsid() < 0)
		return -errno;
	if (t->master < 0)
		return 0;
	close(t->master);
	/* Without typing relayed, no controlling terminal: /dev/tty fails at once. */
	if (t->input && ioctl(t->slave, TIOCSCTTY, 0) < 0)
		return -errno;
	for (int fd = 0; fd < 3; fd++)
		if (t->on_slave[fd] && dup2(t->slave, fd) < 0)
			return -errno;
	err = cover_high_fds(t);
	close(t->slave);
	return err;
}

void f2t_tty_forked(struct f2t_tty *t, pid_t child)
{
	struct sigaction sa = { .sa_handler = on_winch };

	t->child = child;
	if (t->slave >= 0)
		close(t->slave);
	t->slave = -1;
	if (t->master < 0)
		return;
	sigemptyset(&sa.sa_mask);
	winch = 0;
	t->winch_handler = sigaction(SIGWINCH, &sa, &old_winch) == 0;
}

/* May we read the terminal and change its modes?  Not our controlling one: yes. */
static bool foreground(const struct f2t_tty *t)
{
	pid_t fg = tcgetpgrp(t->term);

	if (fg < 0)
		return errno == ENOTTY;
	return fg == getpgrp();
}

static void set_raw(struct f2t_tty *t)
{
	struct termios raw;

	/* Read again: the shell may have changed them while we were stopped. */
	if (tcgetattr(t->term, &t->saved) < 0)
		return;
	raw = t->saved;
	cfmakeraw(&raw);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	t->raw = tcsetattr(t->term, TCSADRAIN, &raw) == 0;
}

static void restore(struct f2t_tty *t)
{
	sigset_t ttou, old;

	if (!t->raw)
		return;
	/* Should we no longer be in the foreground, SIGTTOU must not stop us. */
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	tcsetattr(t->term, TCSADRAIN, &t->saved);
	sigprocmask(SIG_SETMASK, &old, NULL);
	t->raw = false;
}

/* Our window size, to the slave (the kernel sends its group SIGWINCH). */
static void pass_winsize(const struct f2t_tty *t)
{
	struct winsize ws;

	if (ioctl(t->term, TIOCGWINSZ, &ws) == 0)
		ioctl(t->master, TIOCSWINSZ, &ws);
}

/* Does process PID catch or ignore SIG (as an interactive shell does SIGTSTP)? */
static bool handles(pid_t pid, int sig)
{
	unsigned long long mask, handled = 0;
	char path[64], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;	/* gone: leave the key to its terminal alone */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigIgn: %llx", &mask) == 1 ||
		    sscanf(line, "SigCgt: %llx", &mask) == 1)
			handled |= mask;
	fclose(f);
	return handled >> (sig - 1) & 1;
}

/*
 * Did BUF hold the suspend key (Ctrl-Z), as the command's terminal is set
 * now, while the command's own group is in the foreground, its leader
 * leaving SIGTSTP to the default?  A shell that put a job in the
 * foreground, or that ignores the key at its prompt, gets it alone.
 */
static bool typed_suspend(const struct f2t_tty *t, const unsigned char *buf, size_t n)
{
	struct termios now;

	/* On a master, the slave's modes. */
	if (tcgetattr(t->master, &now) < 0 || !(now.c_lflag & ISIG) ||
	    now.c_cc[VSUSP] == _POSIX_VDISABLE || !memchr(buf, now.c_cc[VSUSP], n))
		return false;
	return tcgetpgrp(t->master) == t->child && !handles(t->child, SIGTSTP);
}

static bool read_typed(struct f2t_tty *t)
{
	ssize_t n = read(t->term, t->in + t->in_len, sizeof(t->in) - t->in_len);
	bool susp;

	if (n <= 0) {
		if (n == 0 || (errno != EINTR && errno != EAGAIN))
			t->in_eof = true;
		return false;
	}
	susp = typed_suspend(t, t->in + t->in_len, (size_t)n);
	t->in_len += (size_t)n;
	return susp;
}

/* What the command wrote, added to T->out; master_eof once no slave is left (or on an error). */
static void read_master(struct f2t_tty *t)
{
	ssize_t n = read(t->master, t->out + t->out_len, sizeof(t->out) - t->out_len);

	if (n > 0)
		t->out_len += (size_t)n;
	else if (!(n < 0 && (errno == EAGAIN || errno == EINTR)))
		t->master_eof = true;
}

/* Writes what it can of BUF to FD; a descriptor that fails drops the rest. */
static void push(int fd, unsigned char *buf, size_t *len)
{
	ssize_t n = write(fd, buf, *len);

	if (n > 0) {
		memmove(buf, buf + n, *len - (size_t)n);
		*len -= (size_t)n;
	} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
		*len = 0;
	}
}

void f2t_tty_pollfds(const struct f2t_tty *t, struct pollfd *pfd)
{
	short master_ev = 0;

	if (t->master >= 0 && !t->master_eof && t->out_len < sizeof(t->out))
		master_ev |= POLLIN;
	if (t->master >= 0 && t->in_len)
		master_ev |= POLLOUT;
	pfd[0] = (struct pollfd){ .events = POLLIN,
		.fd = t->raw && !t->in_eof && t->in_len < sizeof(t->in) ? t->term : -1 };
	pfd[1] = (struct pollfd){ .fd = t->out_len ? t->term_out : -1, .events = POLLOUT };
	pfd[2] = (struct pollfd){ .fd = master_ev ? t->master : -1, .events = master_ev };
}

bool f2t_tty_relay(struct f2t_tty *t, const struct pollfd *pfd)
{
	bool susp = false;

	if (t->master < 0)
		return false;
	if (winch) {
		winch = 0;
		pass_winsize(t);
	}
	if (t->input && !t->raw && !t->in_eof && foreground(t))
		set_raw(t);
	if (pfd[0].revents)
		susp = read_typed(t);
	if (pfd[2].revents & (POLLIN | POLLHUP | POLLERR))
		read_master(t);
	if (t->in_len)
		push(t->master, t->in, &t->in_len);
	if (pfd[1].revents)
		push(t->term_out, t->out, &t->out_len);
	return susp;
}

bool f2t_tty_suspend(struct f2t_tty *t)
{
	if (!t->raw)
		return false;
	restore(t);
	/* Our process group is stopped as the key would have; we return at fg/bg. */
	raise(SIGTSTP);
	return true;
}

/* The terminal's modes and SIGWINCH's disposition, as we found them. */
static void give_back(struct f2t_tty *t)
{
	restore(t);
	if (t->winch_handler)
		sigaction(SIGWINCH, &old_winch, NULL);
	t->winch_handler = false;
}

void f2t_tty_finish(struct f2t_tty *t)
{
	time_t until = time(NULL) + FINISH_SECONDS;

	if (t->master < 0)
		return;
	/* Bounded: a process the command left behind may write on and on. */
	for (int i = 0; i < FINISH_ROUNDS && time(NULL) < until; i++) {
		struct pollfd out = { .fd = t->term_out, .events = POLLOUT };

		if (!t->master_eof && t->out_len < sizeof(t->out))
			read_master(t);
		if (!t->out_len || poll(&out, 1, FINISH_WAIT_MS) <= 0)
			break;
		push(t->term_out, t->out, &t->out_len);
	}
	t->out_len = t->in_len = 0;
	give_back(t);
}

void f2t_tty_close(struct f2t_tty *t)
{
	give_back(t);
	if (t->master >= 0)
		close(t->master);
	if (t->slave >= 0)
		close(t->slave);
	t->master = t->slave = -1;
}
