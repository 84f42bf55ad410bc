// SPDX-License-Identifier: MIT
/*
 * /proc walk: /proc/PID/task/TID/comm for every thread.  Tasks come and go
 * while we walk; a directory or comm file that vanished is simply skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/procsnap.h"
#include "util/textbuf.h"

static long numeric(const char *name)
{
	char *end;
	long v = strtol(name, &end, 10);

	return (*name && !*end && v > 0) ? v : -1;
}

/* comm of TGID/TID without its newline; false if the task is gone. */
static bool read_comm(int taskfd, long tid, char *comm, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%ld/comm", tid);
	fd = openat(taskfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, comm, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return true;
}

static int add_process(struct f2t_textbuf *b, long tgid)
{
	char path[64], comm[64], line[128];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task", tgid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while (!err && (de = readdir(d))) {
		long tid = numeric(de->d_name);
		int n;

		if (tid < 0 || !read_comm(dirfd(d), tid, comm, sizeof(comm)))
			continue;
		n = snprintf(line, sizeof(line), "%ld %ld %s\n", tid, tgid, comm);
		err = f2t_textbuf_add(b, line, (size_t)n);
	}
	closedir(d);
	return err;
}

int f2t_procsnap_take(struct f2t_textbuf *b)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		long pid = numeric(de->d_name);

		if (pid > 0)
			err = add_process(b, pid);
	}
	closedir(d);
	return err;
}

int f2t_procsnap_write(struct f2t_capw *w, uint32_t arg)
{
	struct f2t_textbuf b = { 0 };
	int err = f2t_procsnap_take(&b);

	if (!err)
		err = f2t_capw_add(w, F2T_CAP_TASKS, arg, b.p ? b.p : "", b.len);
	free(b.p);
	return err;
}
