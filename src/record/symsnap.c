// SPDX-License-Identifier: MIT
/*
 * Symbol-related snapshots for the capture.  Text in, text out: the
 * decoder parses it, so a capture can be converted on another machine.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/meta.h"
#include "record/symsnap.h"
#include "symbols/buildid.h"
#include "util/log.h"
#include "util/openreg.h"
#include "util/textbuf.h"
#include "util/vec.h"

#define JIT_MAP_MAX (64u << 20)	/* bytes of JIT maps kept in all */

int f2t_symsnap_kallsyms(struct f2t_capw *w)
{
	struct f2t_textbuf t = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool hidden = true;
	FILE *f = fopen("/proc/kallsyms", "re");
	int err = 0;

	if (!f && f2t_resource_error(-errno)) {
		err = -errno;
		f2t_err("cannot read /proc/kallsyms: %s", strerror(errno));
		return err;
	}
	if (!f) {
		f2t_warn("cannot read /proc/kallsyms (%s): kernel frames will be addresses",
			 strerror(errno));
		return 0;
	}
	/* "ADDR TYPE NAME[\t[MODULE]]" */
	while (!err && (n = getline(&line, &cap, f)) > 0) {
		const char *sp = strchr(line, ' ');
		char type = sp ? sp[1] : 0;

		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (hidden && strspn(line, "0") != (size_t)(sp - line))
			hidden = false;
		err = f2t_textbuf_add(&t, line, (size_t)n);
	}
	fclose(f);
	free(line);
	if (hidden)
		f2t_warn("/proc/kallsyms hides its addresses (kptr_restrict): kernel frames will be addresses");
	if (err == -ENOMEM)
		f2t_err("reading /proc/kallsyms: out of memory");
	if (!err)
		err = f2t_capw_add(w, F2T_CAP_KALLSYMS, 0, t.p ? t.p : "", t.len);
	free(t.p);
	return err;
}

static int remember_file(struct f2t_symsnap *s, const char *path, size_t len,
			 const struct f2t_symsnap_file *where)
{
	char *copy;

	for (size_t i = 0; i < s->nfiles; i++)
		if (!strncmp(s->files[i].path, path, len) && !s->files[i].path[len])
			return 0;
	if (f2t_vec_reserve(&s->files, &s->cap, s->nfiles + 1, 64))
		return -ENOMEM;
	copy = strndup(path, len);
	if (!copy)
		return -ENOMEM;
	s->files[s->nfiles] = *where;
	s->files[s->nfiles++].path = copy;
	return 0;
}

/* The executable lines of /proc/PID/maps; nothing if the process is gone. */
static int add_maps(struct f2t_symsnap *s, struct f2t_capw *w, long pid)
{
	struct f2t_textbuf t = { 0 };
	char path[64], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	/* "START-END PERMS OFFSET DEV INODE   PATH" */
	while (!err && (n = getline(&line, &cap, f)) > 0) {
		struct f2t_symsnap_file where = { .pid = (pid_t)pid };
		char perms[8] = "";
		int at = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*x %*s %" SCNu64 " %n", &where.start,
			   &where.end, perms, &where.ino, &at) < 4 || perms[2] != 'x')
			continue;
		err = f2t_textbuf_add(&t, line, (size_t)n);
		if (!err && at > 0 && line[at] == '/')
			err = remember_file(s, line + at, strcspn(line + at, "\n"), &where);
	}
	fclose(f);
	free(line);
	if (!err && t.len)
		err = f2t_capw_add(w, F2T_CAP_MAPS, (uint32_t)pid, t.p, t.len);
	free(t.p);
	return err;
}

int f2t_symsnap_maps(struct f2t_symsnap *s, struct f2t_capw *w, const pid_t *pids,
		     size_t npids)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (pids) {
		for (size_t i = 0; i < npids && !err; i++)
			err = add_maps(s, w, pids[i]);
		return err;
	}
	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid > 0)
			err = add_maps(s, w, pid);
	}
	closedir(d);
	return err;
}

/*
 * F's file, opened: the mapping itself while the process maps it (the
 * mapped inode, deleted or renamed over or not), else the name if it still
 * names that inode.  The inode is compared, not the device: /proc/PID/maps
 * shows the superblock's device, which is not what stat() says on btrfs.
 */
static int open_mapped(const struct f2t_symsnap_file *f)
{
	char path[96];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)f->pid,
		 f->start, f->end);
	fd = f2t_open_reg(AT_FDCWD, path, 0, &st);
	if (fd == -F2T_ENOTREG)
		return fd;	/* what was mapped is no regular file: its name is not tried */
	if (fd >= 0 && st.st_ino == f->ino)
		return fd;
	if (fd >= 0)
		close(fd);	/* the pid was reused: another mapping there */
	fd = f2t_open_reg(AT_FDCWD, f->path, F2T_OPEN_NOFOLLOW, &st);
	if (fd >= 0 && st.st_ino != f->ino) {
		close(fd);
		fd = -ESTALE;
	}
	return fd;
}

/* Adds "HEX PATH\n" for F to T when its file has a build-id. */
static int add_build_id(struct f2t_textbuf *t, const struct f2t_symsnap_file *f)
{
	char hex[2 * F2T_BUILD_ID_MAX + 2];
	struct f2t_build_id id;
	int fd = open_mapped(f), err;

	if (fd < 0)
		return 0;	/* gone, replaced, not a regular file: nothing to vouch for */
	err = f2t_build_id_of_fd(fd, &id);
	close(fd);
	if (err)
		return 0;	/* not ELF, or no note */
	f2t_build_id_hex(&id, hex, sizeof(hex));
	err = f2t_textbuf_add(t, hex, strlen(hex));
	if (!err)
		err = f2t_textbuf_add(t, " ", 1);
	if (!err)
		err = f2t_textbuf_add(t, f->path, strlen(f->path));
	if (!err)
		err = f2t_textbuf_add(t, "\n", 1);
	return err;
}

int f2t_symsnap_build_ids(struct f2t_symsnap *s, struct f2t_capw *w, uint64_t deadline)
{
	struct f2t_textbuf t = { 0 };
	size_t i;
	int err = 0;

	for (i = 0; i < s->nfiles && !err && f2t_meta_now() < deadline; i++)
		err = add_build_id(&t, &s->files[i]);
	if (!err && i < s->nfiles)
		f2t_warn("reading the mapped files took too long: the build-ids of %zu of %zu "
			 "were not saved (their frames are named from whatever file has the name "
			 "at conversion)", s->nfiles - i, s->nfiles);
	if (!err && t.len)
		err = f2t_capw_add(w, F2T_CAP_BUILD_IDS, 0, t.p, t.len);
	free(t.p);
	return err;
}

/* Is a file owned by OWNER PID's, by the rule of f2t_symsnap_jit()? */
static bool owned_by_process(uid_t owner, pid_t pid, const struct f2t_traced *traced)
{
	uid_t uids[4], uid;

	if (!f2t_proc_uids(pid, uids))
		return owner == uids[0] || owner == uids[1] || owner == uids[2] || owner == uids[3];
	return !traced->all && f2t_traced_find(traced, pid, &uid) && owner == uid;
}

static int add_jit_map(struct f2t_capw *w, const char *path, pid_t pid,
		       const struct f2t_traced *traced, size_t *budget)
{
	struct f2t_textbuf t = { 0 };
	struct stat st;
	char buf[65536];
	ssize_t n;
	int fd, err = 0;

	fd = f2t_open_reg(AT_FDCWD, path, F2T_OPEN_NOFOLLOW, &st);
	if (fd < 0) {
		f2t_info("%s not read: %s", path,
			 fd == -F2T_ENOTREG ? "not a regular file" : strerror(-fd));
		return 0;
	}
	if (st.st_nlink != 1 || !owned_by_process(st.st_uid, pid, traced)) {
		f2t_info("%s not read: not a regular file of the process's user", path);
		close(fd);
		return 0;
	}
	while (!err && (n = read(fd, buf, sizeof(buf))) > 0) {
		if ((size_t)n > *budget) {
			f2t_warn("JIT symbol maps exceed %u MB; %s not kept", JIT_MAP_MAX >> 20, path);
			t.len = 0;
			break;
		}
		*budget -= (size_t)n;
		err = f2t_textbuf_add(&t, buf, (size_t)n);
	}
	close(fd);
	if (!err && t.len)
		err = f2t_capw_add(w, F2T_CAP_JIT_MAP, (uint32_t)pid, t.p, t.len);
	free(t.p);
	return err;
}

int f2t_symsnap_jit(struct f2t_capw *w, const struct f2t_traced *traced, uint64_t deadline)
{
	size_t budget = JIT_MAP_MAX, late = 0;
	struct dirent *de;
	DIR *d = opendir("/tmp");
	int err = 0;

	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char path[300], *end;
		uid_t uid;
		long pid;

		if (strncmp(de->d_name, "perf-", 5))
			continue;
		pid = strtol(de->d_name + 5, &end, 10);
		if (pid <= 0 || pid > INT32_MAX || strcmp(end, ".map") ||
		    !f2t_traced_find(traced, (pid_t)pid, &uid))
			continue;
		if (late || f2t_meta_now() >= deadline) {
			late++;
			continue;
		}
		snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
		err = add_jit_map(w, path, (pid_t)pid, traced, &budget);
	}
	closedir(d);
	if (!err && late)
		f2t_warn("reading the files of the traced processes took too long: %zu JIT "
			 "maps were not read", late);
	return err;
}

void f2t_symsnap_free(struct f2t_symsnap *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	free(s->files);
	memset(s, 0, sizeof(*s));
}
