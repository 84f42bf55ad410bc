/* SPDX-License-Identifier: MIT */
/* Inside serve/: starting a browser on the link (browser.c). */
#ifndef F2T_SERVE_LOCAL_H
#define F2T_SERVE_LOCAL_H

#include <sys/types.h>

/**
 * f2t_browser_open() - start a browser on @url where one is configured
 * @url: the link
 * @pid: set to the started process, for waitpid()
 *
 * $BROWSER (a colon-separated list of commands, "%s" standing for the
 * link, else the link appended) or, with a display, xdg-open; never as
 * root (browsers refuse it, and a root browser is not what sudo was for).
 * The browser gets a session of its own (Ctrl-C here does not end it),
 * none of our descriptors, and /dev/null for its standard streams.
 *
 * Return: the command started (a static or environment string), or NULL
 * when none is configured or none could be started.
 */
const char *f2t_browser_open(const char *url, pid_t *pid);

#endif
