// SPDX-License-Identifier: MIT
/* A browser on the link: $BROWSER, else xdg-open where there is a display. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve/serve-local.h"
#include "util/sudo.h"

#define MAX_ARGS 32

/* In the child: HOME, USER and LOGNAME of whom we now are (sudo leaves root's). */
static void user_env(void)
{
	struct passwd *pw = f2t_sudo_ident() ? getpwuid(getuid()) : NULL;

	if (!pw)
		return;
	setenv("HOME", pw->pw_dir, 1);
	setenv("USER", pw->pw_name, 1);
	setenv("LOGNAME", pw->pw_name, 1);
}

/*
 * Runs @argv in a session of its own with /dev/null for stdin, stdout and
 * stderr.  Whether exec worked comes back through a close-on-exec pipe.
 */
static pid_t spawn(char **argv)
{
	int pfd[2], null, child_err = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 ||
		    setsid() < 0) {
			child_err = errno;
		} else {
			user_env();
			execvp(argv[0], argv);
			child_err = errno;
		}
		if (write(pfd[1], &child_err, sizeof(child_err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	if (pid > 0 && read(pfd[0], &child_err, sizeof(child_err)) == sizeof(child_err)) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(pfd[0]);
	return pid;
}

/* One $BROWSER entry, split at blanks, "%s" the link (appended when absent). */
static pid_t run_entry(char *entry, const char *url)
{
	char *argv[MAX_ARGS + 2], *save = NULL;
	bool placed = false;
	int n = 0;

	for (char *w = strtok_r(entry, " \t", &save); w && n < MAX_ARGS;
	     w = strtok_r(NULL, " \t", &save)) {
		placed |= !strcmp(w, "%s");
		argv[n++] = strcmp(w, "%s") ? w : (char *)url;
	}
	if (!n)
		return -1;
	if (!placed)
		argv[n++] = (char *)url;
	argv[n] = NULL;
	return spawn(argv);
}

const char *f2t_browser_open(const char *url, pid_t *pid)
{
	static char *xdg[] = { "xdg-open", NULL, NULL };
	static char used[256];
	const char *env = getenv("BROWSER");

	*pid = -1;
	if (geteuid() == 0)
		return NULL;
	if (env && *env) {
		char *list = strdup(env), *save = NULL;

		if (!list)
			return NULL;
		for (char *e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
			snprintf(used, sizeof(used), "%s", e);
			*pid = run_entry(e, url);
			if (*pid > 0)
				break;
		}
		free(list);
		return *pid > 0 ? used : NULL;
	}
	if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
		return NULL;
	xdg[1] = (char *)url;
	*pid = spawn(xdg);
	return *pid > 0 ? xdg[0] : NULL;
}
