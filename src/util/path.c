// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/log.h"
#include "util/path.h"
#include "util/sudo.h"

#define MAX_HOPS 40		/* symlinks followed, as the kernel's limit */
#define PROC_MAGIC 0x9fa0	/* PROC_SUPER_MAGIC */

bool f2t_path_trusted(const char *path, const struct stat *st)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat d;

	if (S_ISREG(st->st_mode) || S_ISDIR(st->st_mode))
		return true;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &d) < 0)
		return false;
	return !(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH) ||
	       st->st_uid == f2t_sudo_files_uid() || st->st_uid == d.st_uid;
}

void f2t_path_refused(const char *path, const struct stat *st)
{
	f2t_warn("%s: not followed: a %s of another user (uid %u) in a sticky directory "
		 "anyone may write to", path, S_ISLNK(st->st_mode) ? "symlink" : "special file",
		 (unsigned int)st->st_uid);
}

static bool in_proc(const char *dir)
{
	struct statfs fs;

	return statfs(*dir ? dir : "/", &fs) == 0 && fs.f_type == PROC_MAGIC;
}

/* What a /proc fd link shows of a pipe, socket, or deleted file: no path. */
static bool opaque(const char *target)
{
	size_t n = strlen(target), del = strlen(" (deleted)");

	return strstr(target, ":[") || !strncmp(target, "anon_inode:", 11) ||
	       (n > del && !strcmp(target + n - del, " (deleted)"));
}

/*
 * The walk keeps DONE (resolved, no symlink, "" for the root) and TODO
 * (what is left, a link's target put in front of it when one is met).
 */
char *f2t_path_resolve(const char *path)
{
	char *done = NULL, *todo = strdup(path), *rest, *next;
	int hops = 0, err = 0;

	if (!todo || !*path) {
		err = todo ? ENOENT : ENOMEM;
		goto out;
	}
	if (path[0] == '/') {
		done = strdup("");
	} else {
		done = getcwd(NULL, 0);
		if (done && !strcmp(done, "/"))
			*done = '\0';
	}
	if (!done) {
		err = errno;
		goto out;
	}
	rest = todo;
	for (;;) {
		char target[PATH_MAX], *cand;
		size_t len;
		struct stat st;
		ssize_t n;

		rest += strspn(rest, "/");
		if (!*rest)
			break;
		len = strcspn(rest, "/");
		if (len == 1 && rest[0] == '.') {
			rest += len;
			continue;
		}
		if (len == 2 && !strncmp(rest, "..", 2)) {
			*(strrchr(done, '/') ? strrchr(done, '/') : done) = '\0';
			rest += len;
			continue;
		}
		if (asprintf(&cand, "%s/%.*s", done, (int)len, rest) < 0) {
			err = ENOMEM;
			goto out;
		}
		rest += len;
		if (lstat(cand, &st) < 0) {
			err = errno;
			if (err == ENOENT && !rest[strspn(rest, "/")]) {
				free(done);
				done = cand;	/* a file to create */
				err = 0;
				break;
			}
			free(cand);
			goto out;
		}
		if (!S_ISLNK(st.st_mode)) {
			free(done);
			done = cand;
			continue;
		}
		n = -1;
		if (!f2t_path_trusted(cand, &st)) {
			f2t_path_refused(cand, &st);
			err = EACCES;
		}
		else if (++hops > MAX_HOPS)
			err = ELOOP;
		else if ((n = readlink(cand, target, sizeof(target) - 1)) < 0)
			err = errno;
		if (err) {
			free(cand);
			goto out;
		}
		target[n] = '\0';
		if (in_proc(done) && opaque(target)) {
			/* pipe:[N], socket:[N], a deleted file: the kernel's to follow. */
			free(done);
			if (asprintf(&done, "%s%s", cand, rest[strspn(rest, "/")] ? rest : "") < 0)
				done = NULL;
			free(cand);
			err = done ? 0 : ENOMEM;
			goto out;
		}
		free(cand);
		if (asprintf(&next, "%s%s%s", target, *rest ? "/" : "", rest) < 0) {
			err = ENOMEM;
			goto out;
		}
		if (target[0] == '/')
			*done = '\0';
		free(todo);
		todo = rest = next;
	}
	if (!*done) {
		free(done);
		done = strdup("/");
		err = done ? 0 : ENOMEM;
	}
out:
	free(todo);
	if (err) {
		free(done);
		errno = err;
		return NULL;
	}
	return done;
}

int f2t_path_open(const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC | O_NOCTTY),
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	char *real = f2t_path_resolve(path);
	struct stat st;
	int fd, err;

	if (!real)
		return -errno;
	/* Only a /proc link the walk left to the kernel is still a link. */
	if (lstat(real, &st) == 0 && S_ISLNK(st.st_mode))
		fd = open(real, (int)how.flags);
	else
		fd = (int)syscall(SYS_openat2, AT_FDCWD, real, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)	/* before Linux 5.6 */
		fd = open(real, (int)how.flags | O_NOFOLLOW);
	err = errno;
	free(real);
	errno = err;
	return fd < 0 ? -err : fd;
}
