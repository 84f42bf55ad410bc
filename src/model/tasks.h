/* SPDX-License-Identifier: MIT */
/*
 * What is known about every thread: its process (tgid), its name, its
 * priority.  Seeded from the /proc snapshot taken at record start, kept up to
 * date by the scheduling tracker as events pass (fork, exec, rename, switch).
 * Writers read it; only the tracker changes it.
 */
#ifndef F2T_TASKS_H
#define F2T_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hash.h"

#define F2T_COMM_LEN 16		/* TASK_COMM_LEN, NUL included */
#define F2T_MAX_WRITERS 8

struct f2t_task {
	int32_t tid;
	int32_t tgid;		/* process id; tgid == tid for a process's main thread */
	int32_t prio;		/* last kernel prio seen (0..139), -1 unknown */
	char comm[F2T_COMM_LEN];
	/*
	 * Bumped whenever comm or tgid changes.  Each writer keeps, in its own
	 * slot, the generation it last announced, and re-announces the name
	 * when they differ.
	 */
	uint32_t gen;
	uint32_t announced[F2T_MAX_WRITERS];
	/* Time on a CPU, from the switches to it seen (model/cputime.h). */
	uint64_t cpu_ns;
};

/*
 * Most events name one of the few tasks seen last: their lookup skips the
 * hash, inline, because every stage looks up the tasks of every event.
 */
#define F2T_TASKS_RECENT 8

/* Here for the inline lookups below; only tasks.c touches the fields. */
struct f2t_tasks {
	struct f2t_task *recent[F2T_TASKS_RECENT];	/* by tid % F2T_TASKS_RECENT; never freed */
	struct f2t_hash index;		/* tid -> struct f2t_task * */
	struct f2t_task_slab *first, *last;
};

struct f2t_tasks *f2t_tasks_new(void);
void f2t_tasks_free(struct f2t_tasks *t);

/* f2t_tasks_find() past the recent tasks. */
struct f2t_task *f2t_tasks_find_slow(struct f2t_tasks *t, int32_t tid);

/* The task with TID, or NULL. */
static inline struct f2t_task *f2t_tasks_find(struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task = t->recent[(uint32_t)tid % F2T_TASKS_RECENT];

	return task && task->tid == tid ? task : f2t_tasks_find_slow(t, tid);
}

/* f2t_tasks_get() of a task not known yet. */
struct f2t_task *f2t_tasks_add(struct f2t_tasks *t, int32_t tid);

/* The task with TID, created (tgid = tid, comm "<...>", prio -1) if unknown. NULL on ENOMEM. */
static inline struct f2t_task *f2t_tasks_get(struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task = f2t_tasks_find(t, tid);

	return task ? task : f2t_tasks_add(t, tid);
}

/* strncmp(HAVE, COMM, F2T_COMM_LEN - 1) == 0, inline: a name comes with every switch. */
static inline bool f2t_comm_eq(const char *have, const char *comm)
{
	for (unsigned int i = 0; i < F2T_COMM_LEN - 1; i++) {
		if (have[i] != comm[i])
			return false;
		if (!have[i])
			return true;
	}
	return true;
}

/* f2t_task_set() when something changes. */
void f2t_task_change(struct f2t_task *task, const char *comm, int32_t tgid);

/* Sets comm and/or tgid (NULL / 0 leave them), bumping gen if they changed. */
static inline void f2t_task_set(struct f2t_task *task, const char *comm, int32_t tgid)
{
	if ((comm && !f2t_comm_eq(task->comm, comm)) || (tgid > 0 && task->tgid != tgid))
		f2t_task_change(task, comm, tgid);
}

/* Calls FN for every task, in the order they became known.  Stops early if FN returns non-zero. */
int f2t_tasks_each(struct f2t_tasks *t, int (*fn)(struct f2t_task *, void *), void *ctx);
uint32_t f2t_tasks_count(const struct f2t_tasks *t);

/*
 * Parses a snapshot ("TID TGID COMM\n" lines, comm to end of line) into T.
 * Returns the number of tasks read, or -EINVAL with *bad_line set.
 */
int f2t_tasks_load_snapshot(struct f2t_tasks *t, const char *text, size_t len,
			    int *bad_line);

#endif
