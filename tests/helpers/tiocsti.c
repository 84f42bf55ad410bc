// SPDX-License-Identifier: MIT
/*
 * tiocsti LINE: pushes LINE and a newline into the input of every terminal
 * it can reach (its descriptors 0, 1 and 2, and /dev/tty) with TIOCSTI, as
 * a hostile recorded command would, so that the shell reading that
 * terminal after the recorder exits runs it.  Says on stdout, per target,
 * whether the kernel took it.  Exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void push(int fd, const char *what, const char *line)
{
	int err = 0;

	for (const char *p = line; *p && !err; p++)
		if (ioctl(fd, TIOCSTI, p) < 0)
			err = errno;
	if (!err && ioctl(fd, TIOCSTI, "\n") < 0)
		err = errno;
	printf("TIOCSTI %s: %s\n", what, err ? strerror(err) : "pushed");
}

int main(int argc, char **argv)
{
	const char *names[] = { "fd 0", "fd 1", "fd 2" };
	int tty;

	if (argc != 2) {
		fprintf(stderr, "usage: tiocsti LINE\n");
		return 2;
	}
	for (int fd = 0; fd < 3; fd++)
		push(fd, names[fd], argv[1]);
	tty = open("/dev/tty", O_RDWR);
	if (tty < 0) {
		printf("TIOCSTI /dev/tty: open: %s\n", strerror(errno));
	} else {
		push(tty, "/dev/tty", argv[1]);
		close(tty);
	}
	fflush(stdout);
	return 0;
}
