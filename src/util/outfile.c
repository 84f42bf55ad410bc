// SPDX-License-Identifier: MIT
/*
 * Temporary file, then rename: see outfile.h.  The names of the temporary
 * files still open sit in a fixed table, so that a signal handler can
 * remove them with nothing but unlink(); the stop signals are blocked while
 * the table and the files on disk change together.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "util/outfile.h"

#define MAX_TEMPS 32
#define MAX_HOPS 40		/* symlinks followed, as the kernel's limit */
#define NAME_KEPT 200		/* of NAME in ".NAME.f2t-XXXXXX", to stay under NAME_MAX */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static char temps[MAX_TEMPS][PATH_MAX];
static volatile sig_atomic_t temp_used[MAX_TEMPS];

static bool owner_set;
static uid_t owner_uid;
static gid_t owner_gid;

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

/* "a/b" -> "a", "b" -> ".", "/b" -> "/". */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * May we go through PATH (lstat ST), a symlink or a file that is not a
 * regular one?  Not when it lies in a sticky, world-writable directory and
 * belongs to someone else than us and the directory's owner: the rule of
 * fs.protected_symlinks and fs.protected_fifos, whatever they are set to.
 */
static bool trusted(const char *path, const struct stat *st)
{
	struct stat d;
	char *dir = dir_of(path);
	bool ok;

	if (!dir)
		return false;
	ok = stat(dir, &d) == 0 &&
	     (!(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH) ||
	      st->st_uid == geteuid() || st->st_uid == d.st_uid);
	free(dir);
	return ok;
}

/* TARGET read from the symlink LINK, as a path from here. */
static char *link_target(const char *link)
{
	char target[PATH_MAX], *dir, *joined;
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n < 0)
		return NULL;
	target[n] = '\0';
	if (target[0] == '/')
		return strdup(target);
	dir = dir_of(link);
	if (!dir || asprintf(&joined, "%s/%s", dir, target) < 0)
		joined = NULL;
	free(dir);
	return joined;
}

/*
 * The file PATH names, its symlinks followed where trusted.  *THROUGH is
 * set when it exists and is not a regular file; *NOFOLLOW when it is not a
 * symlink itself.  Returns a malloc'd path, or NULL + errno (EACCES for a
 * symlink not followed, as the kernel says).
 */
static char *resolve(const char *path, bool *through, bool *nofollow)
{
	char *p = strdup(path);

	for (int hop = 0; p; hop++) {
		struct stat st, to;	/* the name's, and what it leads to */
		bool reaches;
		char *next;

		if (lstat(p, &st) < 0) {
			if (errno == ENOENT)
				return p;	/* a new file */
			break;
		}
		*nofollow = !S_ISLNK(st.st_mode);
		if (S_ISREG(st.st_mode))
			return p;
		reaches = stat(p, &to) == 0;
		if (reaches && S_ISDIR(to.st_mode)) {
			errno = EISDIR;
			break;
		}
		if (!trusted(p, &st)) {
			errno = EACCES;
			break;
		}
		/* A device or pipe, maybe behind a link (/dev/stdout): written through. */
		if (reaches && !S_ISREG(to.st_mode)) {
			*through = true;
			return p;
		}
		if (hop == MAX_HOPS) {
			errno = ELOOP;
			break;
		}
		next = link_target(p);
		free(p);
		p = next;
	}
	free(p);
	return NULL;
}

/* DIR made canonical, then "/" BASE: one spelling for one directory entry. */
static char *canonical(const char *path)
{
	char *dir = dir_of(path), *real = dir ? realpath(dir, NULL) : NULL, *out = NULL;

	if (real && asprintf(&out, "%s%s%s", real, strcmp(real, "/") ? "/" : "",
			     base_of(path)) < 0)
		out = NULL;
	free(dir);
	free(real);
	return out;
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
			f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				     mode);
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

int f2t_outfile_open(struct f2t_outfile *f, const char *path, unsigned int flags)
{
	bool through = false, nofollow = false;
	char *resolved;
	int err;

	*f = (struct f2t_outfile){ .fd = -1, .slot = -1, .flags = flags };
	resolved = flags & F2T_OUTFILE_UNNAMED ? strdup(path) : resolve(path, &through, &nofollow);
	if (!resolved)
		return -errno;
	if (through) {
		f->path = resolved;
		f->fd = open(resolved, O_WRONLY | O_NOCTTY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
		err = f->fd < 0 ? -errno : 0;
		goto out;
	}
	f->path = canonical(resolved);
	free(resolved);
	err = f->path ? create_temp(f) : -errno;
	if (!err && flags & F2T_OUTFILE_UNNAMED) {
		/* Gone from the directory before anything is in it. */
		unlink(f->tmp);
		release_slot(f->slot);
		f->slot = -1;
		free(f->path);
		f->path = f->tmp;
		f->tmp = NULL;
	}
out:
	if (err)
		f2t_outfile_abort(f);
	return err;
}

int f2t_outfile_commit(struct f2t_outfile *f)
{
	bool rename_it = f->tmp != NULL;
	sigset_t old;
	int err = 0;

	if (rename_it) {
		/* The rename must not land before the data does (a power cut). */
		if (fsync(f->fd) < 0)
			err = -errno;
		if (!err && owner_set && fchown(f->fd, owner_uid, owner_gid) < 0)
			f2t_warn("%s: cannot give it to uid %u: %s", f->path, (unsigned int)owner_uid,
				 strerror(errno));
	}
	if (close(f->fd) < 0 && !err)
		err = -errno;
	f->fd = -1;
	if (err) {
		f2t_outfile_abort(f);
		return err;
	}
	if (rename_it) {
		f2t_outfile_hold_signals(&old);
		if (rename(f->tmp, f->path) < 0)
			err = -errno;
		else
			release_slot(f->slot);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (err) {
			f2t_outfile_abort(f);
			return err;
		}
		f->slot = -1;
	}
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
		f2t_outfile_hold_signals(&old);
		unlink(f->tmp);
		release_slot(f->slot);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	f->slot = -1;
	free(f->path);
	free(f->tmp);
	f->path = f->tmp = NULL;
}

void f2t_outfile_set_owner(uid_t uid, gid_t gid)
{
	owner_set = true;
	owner_uid = uid;
	owner_gid = gid;
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
