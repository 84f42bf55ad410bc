// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/termwidth.h"

#define MIN_WIDTH 40	/* narrower, nothing fits anyway */

unsigned int f2t_term_width(int fd)
{
	const char *env = getenv("COLUMNS");
	unsigned long w = 0;
	struct winsize ws;

	if (env && *env) {
		char *end;

		w = strtoul(env, &end, 10);
		if (*end || w > 100000)
			w = 0;
	}
	if (!w && isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws))
		w = ws.ws_col;
	if (!w)
		w = F2T_TERM_DEFAULT_WIDTH;
	return w < MIN_WIDTH ? MIN_WIDTH : (unsigned int)w;
}
