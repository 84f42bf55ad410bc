// SPDX-License-Identifier: MIT
/*
 * Marker trigger (markwatch.h).  trace_pipe hands out the kernel's text,
 * one line per marker: "COMM-TID [CPU] FLAGS TIME: tracing_mark_write: TEXT".
 * Only the text after the event name is searched, so a task's name cannot
 * trigger by itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/markwatch.h"
#include "util/log.h"

#define MARK_EVENT "tracing_mark_write: "

int f2t_markwatch_open(struct f2t_markwatch *mw, const char *text)
{
	int err;

	memset(mw, 0, sizeof(*mw));
	mw->fd = -1;
	mw->text = text;
	err = f2t_inst_create(&mw->inst, 64);
	if (err)
		return err;	/* said */
	if (tracefs_instance_file_write(mw->inst.ti, "options/copy_trace_marker", "1") <= 0) {
		f2t_err("--trigger-marker: this kernel cannot copy trace_marker writes into a "
			"tracefs instance (no options/copy_trace_marker)");
		return -EOPNOTSUPP;
	}
	/* Wake the reader for every marker, not when a share of the ring is full. */
	if (tracefs_file_exists(mw->inst.ti, "buffer_percent"))
		tracefs_instance_file_write(mw->inst.ti, "buffer_percent", "0");
	mw->fd = tracefs_instance_file_open(mw->inst.ti, "trace_pipe",
					    O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (mw->fd < 0) {
		err = -(errno ? errno : EIO);
		f2t_err("--trigger-marker: cannot open %s's trace_pipe: %s", mw->inst.name,
			strerror(-err));
		return err;
	}
	fcntl(mw->fd, F_SETFD, FD_CLOEXEC);
	err = f2t_inst_tracing(&mw->inst, true);
	if (err)
		f2t_err("--trigger-marker: cannot turn tracing on in %s: %s", mw->inst.name,
			strerror(-err));
	return err;
}

/* One whole line: does its marker text hold ours?  Says which, and who wrote it. */
static bool matches(const struct f2t_markwatch *mw, const char *line, char *cause, size_t len)
{
	const char *mark = strstr(line, MARK_EVENT), *who = line;
	size_t wholen;

	if (!mark || !strstr(mark + strlen(MARK_EVENT), mw->text))
		return false;
	while (*who == ' ')
		who++;
	wholen = strcspn(who, " [");
	snprintf(cause, len, "marker \"%.200s\" written by %.*s", mark + strlen(MARK_EVENT),
		 (int)(wholen < 64 ? wholen : 64), who);
	return true;
}

int f2t_markwatch_read(struct f2t_markwatch *mw, char *cause, size_t len)
{
	int found = 0;

	if (mw->fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(mw->fd, mw->line + mw->used, sizeof(mw->line) - 1 - mw->used);
		char *start, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return found;
		if (n < 0) {
			int err = -errno;

			f2t_err("--trigger-marker: reading %s's trace_pipe: %s", mw->inst.name,
				strerror(-err));
			return err;
		}
		if (n == 0)
			return found;
		mw->used += (size_t)n;
		mw->line[mw->used] = '\0';
		start = mw->line;
		while ((nl = strchr(start, '\n'))) {
			*nl = '\0';
			if (!found && matches(mw, start, cause, len))
				found = 1;
			start = nl + 1;
		}
		mw->used -= (size_t)(start - mw->line);
		memmove(mw->line, start, mw->used);
		/* A line longer than the buffer: its start is searched alone. */
		if (mw->used == sizeof(mw->line) - 1) {
			if (!found && matches(mw, mw->line, cause, len))
				found = 1;
			mw->used = 0;
		}
	}
}

void f2t_markwatch_close_fd(struct f2t_markwatch *mw)
{
	if (mw->fd >= 0)
		close(mw->fd);
	mw->fd = -1;
}

void f2t_markwatch_close(struct f2t_markwatch *mw)
{
	f2t_markwatch_close_fd(mw);
	f2t_inst_destroy(&mw->inst);
}
