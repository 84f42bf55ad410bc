// SPDX-License-Identifier: MIT
#include <errno.h>
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
	const struct f2t_ident *sudo = f2t_sudo_ident();
	struct passwd *pw;
	gid_t gid;

	memset(ra, 0, sizeof(*ra));
	if (user) {
		errno = 0;
		pw = find_user(user);
		if (!pw) {
			f2t_err("--user %s: %s", user, errno ? strerror(errno) : "no such user");
			return -ENOENT;
		}
		gid = pw->pw_gid;
	} else if (!as_root && sudo) {
		/* Looked up at start (main.c): it exists. */
		errno = 0;
		pw = getpwuid(sudo->uid);
		if (!pw) {
			f2t_err("SUDO_UID=%u: no such user (%s); give --user NAME or --as-root",
				(unsigned int)sudo->uid,
				errno ? strerror(errno) : "not in the user database");
			return -ENOENT;
		}
		gid = sudo->gid;
	} else {
		return 0;
	}
	ra->change = true;
	if (f2t_ident_fill(&ra->id, pw, gid) || !(ra->envp = user_environ(pw))) {
		f2t_err("out of memory");
		f2t_runas_free(ra);
		return -ENOMEM;
	}
	return 0;
}

int f2t_runas_apply(const struct f2t_runas *ra)
{
	int err;

	if (!ra->change)
		return 0;
	err = f2t_ident_become(&ra->id);
	if (!err)
		environ = ra->envp;
	return err;
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
	f2t_ident_free(&ra->id);
	memset(ra, 0, sizeof(*ra));
}
