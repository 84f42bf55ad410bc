// SPDX-License-Identifier: MIT
/*
 * Task table: tasks live in fixed-size slabs, so pointers handed out stay
 * valid while the table grows, indexed by tid in the hash table.  Walks go
 * through the slabs: tasks in the order they became known.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tasks.h"
#include "util/hash.h"

#define SLAB_TASKS 1024

struct f2t_task_slab {
	struct f2t_task_slab *next;
	unsigned int used;
	struct f2t_task tasks[SLAB_TASKS];
};

struct f2t_tasks *f2t_tasks_new(void)
{
	struct f2t_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (f2t_hash_init(&t->index, 512)) {
		free(t);
		return NULL;
	}
	return t;
}

void f2t_tasks_free(struct f2t_tasks *t)
{
	if (!t)
		return;
	while (t->first) {
		struct f2t_task_slab *s = t->first;

		t->first = s->next;
		free(s);
	}
	f2t_hash_fini(&t->index);
	free(t);
}

static bool same_tid(uintptr_t val, const void *key)
{
	return ((const struct f2t_task *)val)->tid == *(const int32_t *)key;
}

static inline struct f2t_hslot *slot_of(const struct f2t_tasks *t, int32_t tid)
{
	return f2t_hash_slot(&t->index, f2t_hash_u64((uint32_t)tid), same_tid, &tid);
}

struct f2t_task *f2t_tasks_find_slow(const struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task = (struct f2t_task *)slot_of(t, tid)->val;

	/*
	 * A reader's lookup fills the cache of recent tasks too: the cache is
	 * not what the table says, and the table is never a const object.
	 */
	if (task)
		((struct f2t_tasks *)t)->recent[(uint32_t)tid % F2T_TASKS_RECENT] = task;
	return task;
}

static struct f2t_task *alloc_task(struct f2t_tasks *t)
{
	if (!t->last || t->last->used == SLAB_TASKS) {
		struct f2t_task_slab *s = calloc(1, sizeof(*s));

		if (!s)
			return NULL;
		if (t->last)
			t->last->next = s;
		else
			t->first = s;
		t->last = s;
	}
	return &t->last->tasks[t->last->used++];
}

struct f2t_task *f2t_tasks_add(struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task;

	if (f2t_hash_reserve(&t->index) < 0)
		return NULL;
	task = alloc_task(t);
	if (!task)
		return NULL;
	f2t_task_init(task, tid);
	task->seq = (uint32_t)t->index.used;
	f2t_hash_put(&t->index, slot_of(t, tid), f2t_hash_u64((uint32_t)tid), (uintptr_t)task);
	return task;
}

void f2t_task_init(struct f2t_task *task, int32_t tid)
{
	task->tid = tid;
	task->tgid = tid;
	task->prio = -1;
	task->gen = 1;
	task->seq = 0;
	/* Constant copies, which the compiler writes inline: a task is made for every new tid. */
	if (tid == 0)
		memcpy(task->comm, "swapper", sizeof("swapper"));
	else
		memcpy(task->comm, "<...>", sizeof("<...>"));
}

void f2t_task_change(struct f2t_task *task, const char *comm, int32_t tgid)
{
	bool changed = false;

	if (comm && !f2t_comm_eq(task->comm, comm)) {
		/* Zeros after the name, as the kernel keeps one: f2t_comm_eq_words() compares whole words. */
		strncpy(task->comm, comm, sizeof(task->comm) - 1);
		task->comm[sizeof(task->comm) - 1] = '\0';
		changed = true;
	}
	if (tgid > 0 && task->tgid != tgid) {
		task->tgid = tgid;
		changed = true;
	}
	if (changed)
		task->gen++;
}

int f2t_tasks_each(const struct f2t_tasks *t, int (*fn)(const struct f2t_task *, void *),
		   void *ctx)
{
	for (struct f2t_task_slab *s = t->first; s; s = s->next) {
		for (unsigned int i = 0; i < s->used; i++) {
			int ret = fn(&s->tasks[i], ctx);

			if (ret)
				return ret;
		}
	}
	return 0;
}

uint32_t f2t_tasks_count(const struct f2t_tasks *t)
{
	return (uint32_t)t->index.used;
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
