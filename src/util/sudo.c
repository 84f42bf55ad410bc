// SPDX-License-Identifier: MIT
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "util/log.h"
#include "util/sudo.h"

static struct {
	bool set;		/* under sudo, and not yet dropped */
	bool dropped;
	struct f2t_ident user;
	gid_t *root_groups;	/* ours, restored at the outermost _end() */
	int nroot_groups;
	int depth;		/* of f2t_sudo_files_begin() */
} sudo;

int f2t_ident_fill(struct f2t_ident *id, const struct passwd *pw, gid_t gid)
{
	int n = 0;

	memset(id, 0, sizeof(*id));
	id->uid = pw->pw_uid;
	id->gid = gid;
	id->name = strdup(pw->pw_name);
	/* First call: how many groups; second: the groups. */
	getgrouplist(pw->pw_name, gid, NULL, &n);
	id->groups = calloc((size_t)(n > 0 ? n : 1), sizeof(*id->groups));
	if (id->groups && getgrouplist(pw->pw_name, gid, id->groups, &n) < 0)
		n = 0;
	id->ngroups = n;
	if (!id->name || !id->groups) {
		f2t_ident_free(id);
		return -ENOMEM;
	}
	return 0;
}

int f2t_ident_become(const struct f2t_ident *id)
{
	if (setgroups((size_t)id->ngroups, id->groups) < 0 ||
	    setresgid(id->gid, id->gid, id->gid) < 0 ||
	    setresuid(id->uid, id->uid, id->uid) < 0)
		return -errno;
	if (id->uid != 0 && (setuid(0) == 0 || geteuid() != id->uid || getegid() != id->gid))
		return -EPERM;
	return 0;
}

void f2t_ident_free(struct f2t_ident *id)
{
	free(id->groups);
	free(id->name);
	memset(id, 0, sizeof(*id));
}

static int parse_id(const char *s, unsigned long *v)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (*end || errno || *s == '-' || *v >= (unsigned long)(uid_t)-1)
		return -EINVAL;
	return 0;
}

int f2t_sudo_init(void)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	unsigned long uv, gv;
	struct passwd *pw;
	int n, err;

	if (geteuid() != 0 || (!u && !g))
		return 0;
	if (parse_id(u, &uv) || parse_id(g, &gv)) {
		f2t_err("SUDO_UID and SUDO_GID are not user and group ids");
		return -EINVAL;
	}
	errno = 0;
	pw = getpwuid((uid_t)uv);
	if (!pw) {
		f2t_err("SUDO_UID=%lu: no such user (%s)", uv,
			errno ? strerror(errno) : "not in the user database");
		return -ENOENT;
	}
	err = f2t_ident_fill(&sudo.user, pw, (gid_t)gv);
	n = getgroups(0, NULL);
	sudo.root_groups = calloc((size_t)(n > 0 ? n : 1), sizeof(gid_t));
	if (!err && (n < 0 || !sudo.root_groups))
		err = -ENOMEM;
	if (!err && getgroups(n, sudo.root_groups) < 0)
		err = -errno;
	if (err) {
		f2t_err("looking up user %lu: %s", uv, strerror(-err));
		return err;
	}
	sudo.nroot_groups = n;
	sudo.set = true;
	return 1;
}

const struct f2t_ident *f2t_sudo_ident(void)
{
	return sudo.set || sudo.dropped ? &sudo.user : NULL;
}

uid_t f2t_sudo_files_uid(void)
{
	return sudo.set || sudo.dropped ? sudo.user.uid : geteuid();
}

int f2t_sudo_drop(void)
{
	int err;

	if (!sudo.set)
		return 0;
	err = f2t_ident_become(&sudo.user);
	if (err) {
		f2t_err("cannot become user %s: %s", sudo.user.name, strerror(-err));
		return err;
	}
	sudo.set = false;
	sudo.dropped = true;
	sudo.depth = 0;
	return 0;
}

/*
 * setfsuid() reports nothing; asking with an id it refuses (-1) returns
 * the one in force.
 */
static bool fs_ids(uid_t uid, gid_t gid)
{
	setfsgid(gid);
	setfsuid(uid);
	return (uid_t)setfsuid((uid_t)-1) == uid && (gid_t)setfsgid((gid_t)-1) == gid;
}

int f2t_sudo_files_begin(void)
{
	if (!sudo.set || sudo.depth++)
		return 0;
	/* Groups first: while the fsuid is root's, setgroups() is allowed. */
	if (setgroups((size_t)sudo.user.ngroups, sudo.user.groups) < 0 ||
	    !fs_ids(sudo.user.uid, sudo.user.gid)) {
		f2t_sudo_files_end();
		return -EPERM;
	}
	return 0;
}

void f2t_sudo_files_end(void)
{
	if (!sudo.set || --sudo.depth)
		return;
	fs_ids(geteuid(), getegid());
	/* Cannot fail for root; if it did, the next begin() sets the user's anyway. */
	(void)!setgroups((size_t)sudo.nroot_groups, sudo.root_groups);
}
