// SPDX-License-Identifier: MIT
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/runas.h"
#include "util/log.h"
#include "util/sudo.h"

extern char **environ;

static const char *const user_vars[] = { "HOME", "USER", "LOGNAME" };
#define NVARS (sizeof(user_vars) / sizeof(user_vars[0]))

/* Ours, but HOME, USER and LOGNAME from PW. */
static char **user_environ(const struct passwd *pw)
{
	const char *values[NVARS] = { pw->pw_dir, pw->pw_name, pw->pw_name };
	size_t n = 0, k = 0, mine;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + NVARS + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;

		for (size_t v = 0; v < NVARS; v++) {
			size_t len = strlen(user_vars[v]);

			replaced |= !strncmp(environ[i], user_vars[v], len) && environ[i][len] == '=';
		}
		if (!replaced)
			env[k++] = environ[i];	/* lives as long as we do */
	}
	mine = k;
	for (size_t v = 0; v < NVARS; v++) {
		if (asprintf(&env[k], "%s=%s", user_vars[v], values[v]) < 0) {
			while (k > mine)
				free(env[--k]);
			free(env);
			return NULL;
		}
		k++;
	}
	return env;
}

static struct passwd *find_user(const char *user)
{
	struct passwd *pw = getpwnam(user);
	char *end;
	unsigned long id;

	if (pw)
		return pw;
	id = strtoul(user, &end, 10);
	return *user && !*end ? getpwuid((uid_t)id) : NULL;
}

int f2t_runas_pick(struct f2t_runas *ra, const char *user, bool as_root)
{
	struct passwd *pw = NULL;
	gid_t gid = 0;
	uid_t uid;
	int n = 0, got;

	memset(ra, 0, sizeof(*ra));
	if (user) {
		errno = 0;
		pw = find_user(user);
		if (!pw) {
			f2t_err("--user %s: %s", user, errno ? strerror(errno) : "no such user");
			return -ENOENT;
		}
		gid = pw->pw_gid;
	} else if (!as_root) {
		got = f2t_sudo_user(&uid, &gid);
		if (got < 0) {
			f2t_err("SUDO_UID and SUDO_GID are not user and group ids; "
				"give --user NAME or --as-root");
			return got;
		}
		if (!got)
			return 0;
		errno = 0;
		pw = getpwuid(uid);
		if (!pw) {
			f2t_err("SUDO_UID=%u: no such user (%s); give --user NAME or --as-root",
				(unsigned int)uid, errno ? strerror(errno) : "not in the user database");
			return -ENOENT;
		}
	} else {
		return 0;
	}
	ra->change = true;
	ra->uid = pw->pw_uid;
	ra->gid = gid;
	ra->name = strdup(pw->pw_name);
	/* First call: how many groups; second: the groups. */
	getgrouplist(pw->pw_name, gid, NULL, &n);
	ra->groups = calloc((size_t)(n > 0 ? n : 1), sizeof(*ra->groups));
	if (ra->groups && getgrouplist(pw->pw_name, gid, ra->groups, &n) < 0)
		n = 0;
	ra->ngroups = n;
	ra->envp = user_environ(pw);
	if (!ra->name || !ra->groups || !ra->envp) {
		f2t_err("out of memory");
		f2t_runas_free(ra);
		return -ENOMEM;
	}
	return 0;
}

int f2t_runas_apply(const struct f2t_runas *ra)
{
	if (!ra->change)
		return 0;
	if (setgroups((size_t)ra->ngroups, ra->groups) < 0 ||
	    setresgid(ra->gid, ra->gid, ra->gid) < 0 ||
	    setresuid(ra->uid, ra->uid, ra->uid) < 0)
		return -errno;
	if (ra->uid != 0 && (setuid(0) == 0 || geteuid() != ra->uid || getegid() != ra->gid))
		return -EPERM;
	environ = ra->envp;
	return 0;
}

void f2t_runas_free(struct f2t_runas *ra)
{
	/* Only the strings we made: the others are our own environment's. */
	for (size_t i = 0; ra->envp && ra->envp[i]; i++)
		for (size_t v = 0; v < NVARS; v++)
			if (!strncmp(ra->envp[i], user_vars[v], strlen(user_vars[v])) &&
			    ra->envp[i][strlen(user_vars[v])] == '=')
				free(ra->envp[i]);
	free(ra->envp);
	free(ra->groups);
	free(ra->name);
	memset(ra, 0, sizeof(*ra));
}
