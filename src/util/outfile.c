// SPDX-License-Identifier: MIT
/*
 * Temporary file, then rename: see outfile.h.  The names of the temporary
 * files still open sit in a fixed table, so that a signal handler can
 * remove them with nothing but unlink() (a name no one can guess); the
 * stop signals are blocked while the table and the files on disk change
 * together.  Under sudo every open, rename and unlink is the user's
 * (util/sudo.h): the kernel checks the path as it would for them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/path.h"
#include "util/sudo.h"

#define MAX_TEMPS 32
#define NAME_KEPT 200		/* of NAME in ".NAME.f2t-XXXXXX", to stay under NAME_MAX */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static char temps[MAX_TEMPS][PATH_MAX];
static volatile sig_atomic_t temp_used[MAX_TEMPS];

void f2t_outfile_hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static int claim_slot(const char *name)
{
	for (int i = 0; i < MAX_TEMPS; i++) {
		if (temp_used[i])
			continue;
		snprintf(temps[i], sizeof(temps[i]), "%s", name);
		temp_used[i] = 1;
		return i;
	}
	return -EMFILE;
}

static void release_slot(int slot)
{
	if (slot >= 0)
		temp_used[slot] = 0;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The directory F->path is in (a path without symlinks), opened so that
 * none can have been swapped in since: the temporary file is created,
 * renamed and removed there.  Opened for each, not kept: a run writing
 * several outputs needs no more descriptors than before.
 */
static int open_dir(struct f2t_outfile *f)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	const char *base = base_of(f->path);
	size_t len = base - f->path > 1 ? (size_t)(base - f->path - 1) : 1;
	char dir[PATH_MAX];	/* not the heap: an abort out of memory opens it too */

	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, f->path, len);
	dir[len] = '\0';
	f->dirfd = (int)syscall(SYS_openat2, AT_FDCWD, dir, &how, sizeof(how));
	if (f->dirfd < 0 && errno == ENOSYS)	/* before Linux 5.6 */
		f->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return f->dirfd < 0 ? -errno : 0;
}

/* Creates ".NAME.f2t-XXXXXX" next to F->path, registered before it exists. */
static int create_temp(struct f2t_outfile *f)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	const char *base = base_of(f->path);
	mode_t mode = f->flags & F2T_OUTFILE_PRIVATE ? 0600 : 0644;
	int dirlen = (int)(base - f->path), err = -EEXIST;
	unsigned char rnd[6];
	sigset_t old;

	for (int attempt = 0; attempt < 100 && err == -EEXIST; attempt++) {
		char *x;

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return -EIO;
		free(f->tmp);
		if (asprintf(&f->tmp, "%.*s.%.*s.f2t-XXXXXX", dirlen, f->path, NAME_KEPT, base) < 0) {
			f->tmp = NULL;
			return -ENOMEM;
		}
		x = f->tmp + strlen(f->tmp) - 6;
		for (size_t i = 0; i < sizeof(rnd); i++)
			x[i] = chars[rnd[i] % (sizeof(chars) - 1)];
		f2t_outfile_hold_signals(&old);
		f->slot = claim_slot(f->tmp);
		err = f->slot;
		if (f->slot >= 0) {
			f->fd = openat(f->dirfd, base_of(f->tmp),
				       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
			err = f->fd < 0 ? -errno : 0;
			if (err) {
				release_slot(f->slot);
				f->slot = -1;
			}
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return err;
}

/*
 * An existing PATH (lstat ST) that is not a regular file: a device or a
 * pipe, maybe behind a /proc link (/dev/stdout), is written through.
 */
static int open_through(struct f2t_outfile *f, const struct stat *st)
{
	struct stat to;

	if (stat(f->path, &to) == 0 && S_ISDIR(to.st_mode))
		return -EISDIR;
	if (!f2t_path_trusted(f->path, st)) {
		f2t_path_refused(f->path, st);
		return -EACCES;
	}
	f->fd = open(f->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	return f->fd < 0 ? -errno : 0;
}

int f2t_outfile_open(struct f2t_outfile *f, const char *path, unsigned int flags)
{
	struct stat st;
	int err;

	*f = (struct f2t_outfile){ .fd = -1, .dirfd = -1, .slot = -1, .flags = flags };
	err = f2t_sudo_files_begin();
	if (err)
		return err;
	f->path = f2t_path_resolve(path);
	if (!f->path) {
		err = -errno;
		goto out;
	}
	if (!(flags & F2T_OUTFILE_UNNAMED) && lstat(f->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		err = open_through(f, &st);
		goto out;
	}
	err = open_dir(f);
	if (!err)
		err = create_temp(f);
	if (!err && flags & F2T_OUTFILE_UNNAMED) {
		/* Gone from the directory before anything is in it. */
		unlinkat(f->dirfd, base_of(f->tmp), 0);
		release_slot(f->slot);
		f->slot = -1;
		free(f->path);
		f->path = f->tmp;
		f->tmp = NULL;
	}
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
out:
	f2t_sudo_files_end();
	if (err)
		f2t_outfile_abort(f);
	return err;
}

int f2t_outfile_commit(struct f2t_outfile *f)
{
	bool rename_it = f->tmp != NULL;
	sigset_t old;
	int err = 0;

	/* The rename must not land before the data does (a power cut). */
	if (rename_it && fsync(f->fd) < 0)
		err = -errno;
	if (close(f->fd) < 0 && !err)
		err = -errno;
	f->fd = -1;
	if (!err && rename_it) {
		/* As the user: replacing a file is theirs to do or not. */
		err = f2t_sudo_files_begin();
		if (!err)
			err = open_dir(f);
		f2t_outfile_hold_signals(&old);
		if (!err && renameat(f->dirfd, base_of(f->tmp), f->dirfd, base_of(f->path)) < 0)
			err = -errno;
		if (!err)
			release_slot(f->slot);
		sigprocmask(SIG_SETMASK, &old, NULL);
		f2t_sudo_files_end();
		if (!err)
			f->slot = -1;
	}
	if (err) {
		f2t_outfile_abort(f);
		return err;
	}
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
	free(f->path);
	free(f->tmp);
	f->path = f->tmp = NULL;
	return 0;
}

void f2t_outfile_abort(struct f2t_outfile *f)
{
	sigset_t old;

	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->tmp) {
		if (f->dirfd < 0 && !f2t_sudo_files_begin()) {
			/*
			 * No descriptor left for the directory (a run out of
			 * them): the temporary file by its name, which is ours
			 * and unguessable, as the handler of a fatal signal does.
			 */
			if (open_dir(f))
				unlink(f->tmp);
			f2t_sudo_files_end();
		}
		f2t_outfile_hold_signals(&old);
		if (f->dirfd >= 0)
			unlinkat(f->dirfd, base_of(f->tmp), 0);
		release_slot(f->slot);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
	f->slot = -1;
	free(f->path);
	free(f->tmp);
	f->path = f->tmp = NULL;
}

static void on_stop(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	for (int i = 0; i < MAX_TEMPS; i++)
		if (temp_used[i])
			unlink(temps[i]);
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* delivered when we return: the process ends by SIG */
}

int f2t_outfile_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop }, old;

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		if (sigaction(stop_signals[i], NULL, &old) < 0)
			return -errno;
		/* Ignored hang-ups (nohup) stay ignored, and so does SIGPIPE for
		 * a caller that handles EPIPE; an interrupt always stops us, as
		 * it stops record, even in a background job. */
		if ((stop_signals[i] == SIGHUP || stop_signals[i] == SIGPIPE) &&
		    old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(stop_signals[i], &sa, NULL) < 0)
			return -errno;
	}
	return 0;
}
