// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/traced.h"
#include "util/vec.h"

/* Index of PID in T, or where it would go. */
static size_t slot(const struct f2t_traced *t, pid_t pid)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int f2t_traced_add(struct f2t_traced *t, pid_t pid, uid_t uid)
{
	size_t at = slot(t, pid);

	if (at < t->n && t->v[at].pid == pid)
		return 0;
	if (f2t_vec_reserve(&t->v, &t->cap, t->n + 1, 64))
		return -ENOMEM;
	memmove(&t->v[at + 1], &t->v[at], (t->n - at) * sizeof(*t->v));
	t->v[at] = (struct f2t_traced_proc){ pid, uid };
	t->n++;
	return 0;
}

int f2t_traced_fork(struct f2t_traced *t, pid_t child, pid_t parent)
{
	uid_t uid;

	if (t->all || child == parent || !f2t_traced_find(t, parent, &uid))
		return 0;
	return f2t_traced_add(t, child, uid);
}

bool f2t_traced_find(const struct f2t_traced *t, pid_t pid, uid_t *uid)
{
	size_t at;

	if (t->all)
		return true;
	at = slot(t, pid);
	if (at == t->n || t->v[at].pid != pid)
		return false;
	*uid = t->v[at].uid;
	return true;
}

int f2t_proc_uids(pid_t pid, uid_t uids[4])
{
	char path[64], line[256];
	unsigned int u[4];
	int err = -EIO;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %u %u %u %u", &u[0], &u[1], &u[2], &u[3]) == 4) {
			for (int i = 0; i < 4; i++)
				uids[i] = (uid_t)u[i];
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

void f2t_traced_free(struct f2t_traced *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
