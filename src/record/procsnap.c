// SPDX-License-Identifier: MIT
/*
 * /proc walk: /proc/PID/task/TID for every thread (the comms here, the
 * latency trigger's starting figures there).  Tasks come and go while we
 * walk; a directory or file that vanished is simply skipped.
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

ssize_t f2t_proc_read_task(int taskdir, long tid, const char *name, char *buf, size_t len)
{
	size_t got = 0;
	char path[64];
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "%ld/%s", tid, name);
	fd = openat(taskdir, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	return n < 0 ? -1 : (ssize_t)got;
}

static int each_thread_of(long tgid, f2t_proc_thread_fn fn, void *ctx)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task", tgid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while (!err && (de = readdir(d))) {
		long tid = numeric(de->d_name);

		if (tid > 0)
			err = fn(dirfd(d), tgid, tid, ctx);
	}
	closedir(d);
	return err;
}

int f2t_proc_each_thread(long tgid, f2t_proc_thread_fn fn, void *ctx)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (tgid > 0)
		return each_thread_of(tgid, fn, ctx);
	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		long pid = numeric(de->d_name);

		if (pid > 0)
			err = each_thread_of(pid, fn, ctx);
	}
	closedir(d);
	return err;
}

/* One "TID TGID COMM" line; a thread gone meanwhile is skipped. */
static int add_thread(int taskdir, long tgid, long tid, void *ctx)
{
	char comm[64], line[128];
	ssize_t len = f2t_proc_read_task(taskdir, tid, "comm", comm, sizeof(comm));
	int n;

	if (len <= 0)
		return 0;
	comm[strcspn(comm, "\n")] = '\0';
	n = snprintf(line, sizeof(line), "%ld %ld %s\n", tid, tgid, comm);
	return f2t_textbuf_add(ctx, line, (size_t)n);
}

int f2t_procsnap_take(struct f2t_textbuf *b)
{
	return f2t_proc_each_thread(0, add_thread, b);
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
