// SPDX-License-Identifier: MIT
/*
 * Task table: an open-addressing hash from tid to task.  Tasks live in
 * fixed-size slabs so pointers handed out stay valid while the table grows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tasks.h"

#define SLAB_TASKS 1024

struct slab {
	struct slab *next;
	unsigned int used;
	struct f2t_task tasks[SLAB_TASKS];
};

struct f2t_tasks {
	struct f2t_task **slots;	/* power-of-two sized, NULL = empty */
	uint32_t mask;
	uint32_t count;
	struct slab *slabs;
};

static uint32_t hash_tid(int32_t tid)
{
	uint32_t h = (uint32_t)tid * 2654435761u;

	return h ^ (h >> 16);
}

struct f2t_tasks *f2t_tasks_new(void)
{
	struct f2t_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->mask = 1023;
	t->slots = calloc(t->mask + 1, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void f2t_tasks_free(struct f2t_tasks *t)
{
	if (!t)
		return;
	while (t->slabs) {
		struct slab *s = t->slabs;

		t->slabs = s->next;
		free(s);
	}
	free(t->slots);
	free(t);
}

struct f2t_task *f2t_tasks_find(struct f2t_tasks *t, int32_t tid)
{
	for (uint32_t i = hash_tid(tid) & t->mask;; i = (i + 1) & t->mask) {
		struct f2t_task *task = t->slots[i];

		if (!task || task->tid == tid)
			return task;
	}
}

static int grow(struct f2t_tasks *t)
{
	uint32_t nmask = t->mask * 2 + 1;
	struct f2t_task **n = calloc((size_t)nmask + 1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (uint32_t i = 0; i <= t->mask; i++) {
		struct f2t_task *task = t->slots[i];
		uint32_t j;

		if (!task)
			continue;
		for (j = hash_tid(task->tid) & nmask; n[j]; j = (j + 1) & nmask)
			;
		n[j] = task;
	}
	free(t->slots);
	t->slots = n;
	t->mask = nmask;
	return 0;
}

static struct f2t_task *alloc_task(struct f2t_tasks *t)
{
	if (!t->slabs || t->slabs->used == SLAB_TASKS) {
		struct slab *s = calloc(1, sizeof(*s));

		if (!s)
			return NULL;
		s->next = t->slabs;
		t->slabs = s;
	}
	return &t->slabs->tasks[t->slabs->used++];
}

struct f2t_task *f2t_tasks_get(struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task = f2t_tasks_find(t, tid);
	uint32_t i;

	if (task)
		return task;
	/* Keep the load factor under one half so probes stay short. */
	if ((t->count + 1) * 2 > t->mask + 1 && grow(t) < 0)
		return NULL;
	task = alloc_task(t);
	if (!task)
		return NULL;
	task->tid = tid;
	task->tgid = tid;
	task->prio = -1;
	if (tid == 0)
		snprintf(task->comm, sizeof(task->comm), "swapper");
	else
		snprintf(task->comm, sizeof(task->comm), "<...>");
	task->gen = 1;
	for (i = hash_tid(tid) & t->mask; t->slots[i]; i = (i + 1) & t->mask)
		;
	t->slots[i] = task;
	t->count++;
	return task;
}

void f2t_task_set(struct f2t_task *task, const char *comm, int32_t tgid)
{
	bool changed = false;

	if (comm && strncmp(task->comm, comm, F2T_COMM_LEN - 1) != 0) {
		snprintf(task->comm, sizeof(task->comm), "%s", comm);
		changed = true;
	}
	if (tgid > 0 && task->tgid != tgid) {
		task->tgid = tgid;
		changed = true;
	}
	if (changed)
		task->gen++;
}

int f2t_tasks_each(struct f2t_tasks *t, int (*fn)(struct f2t_task *, void *), void *ctx)
{
	for (uint32_t i = 0; i <= t->mask; i++) {
		int ret;

		if (!t->slots[i])
			continue;
		ret = fn(t->slots[i], ctx);
		if (ret)
			return ret;
	}
	return 0;
}

uint32_t f2t_tasks_count(const struct f2t_tasks *t)
{
	return t->count;
}

int f2t_tasks_load_snapshot(struct f2t_tasks *t, const char *text, size_t len,
			    int *bad_line)
{
	const char *p = text, *end = text + len;
	int n = 0, line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		/* strtol() needs a terminated string: the text is not one. */
		char buf[128], *q, *r;
		struct f2t_task *task;
		long tid, tgid;
		size_t blen;

		if (!nl)
			nl = end;
		line++;
		blen = (size_t)(nl - p) < sizeof(buf) - 1 ? (size_t)(nl - p) : sizeof(buf) - 1;
		memcpy(buf, p, blen);
		buf[blen] = '\0';
		tid = strtol(buf, &q, 10);
		if (q == buf || *q != ' ' || tid < 0 || tid > INT32_MAX)
			goto bad;
		tgid = strtol(q + 1, &r, 10);
		if (r == q + 1 || *r != ' ' || tgid < 0 || tgid > INT32_MAX)
			goto bad;
		/* The name runs to the end of the line; the task keeps what fits. */
		task = f2t_tasks_get(t, (int32_t)tid);
		if (!task)
			return -ENOMEM;
		f2t_task_set(task, r + 1, (int32_t)tgid);
		n++;
		p = nl + 1;
	}
	return n;
bad:
	if (bad_line)
		*bad_line = line;
	return -EINVAL;
}
