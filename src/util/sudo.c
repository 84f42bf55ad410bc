// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/sudo.h"

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

int f2t_sudo_user(uid_t *uid, gid_t *gid)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	unsigned long uv, gv;

	if (geteuid() != 0 || (!u && !g))
		return 0;
	if (parse_id(u, &uv) || parse_id(g, &gv))
		return -EINVAL;
	*uid = (uid_t)uv;
	*gid = (gid_t)gv;
	return 1;
}
