/* SPDX-License-Identifier: MIT */
/*
 * What is known about every thread: its process (tgid), its name, its
 * priority.  Seeded by the input when it opens (the /proc snapshot taken at
 * record start, or what a text input's lines say), then kept up to date by
 * the scheduling tracker as events pass (fork, exec, rename, switch).  From
 * the first event on the tracker owns it: only it changes the table, and
 * everyone else (the model, writers, taps) gets a const view.  What others
 * keep per task lives with them, keyed by the task's seq (the FXT writer's
 * announced names, model/cputime.h's CPU time).
 */
#ifndef F2T_TASKS_H
#define F2T_TASKS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/hash.h"

#define F2T_COMM_LEN 16		/* TASK_COMM_LEN, NUL included */

struct f2t_task {
	int32_t tid;
	int32_t tgid;		/* process id; tgid == tid for a process's main thread */
	int32_t prio;		/* last kernel prio seen (0..139), -1 unknown */
	char comm[F2T_COMM_LEN];
	/*
	 * Bumped whenever comm or tgid changes, so a writer that names tasks
	 * once can tell when to name one again (it keeps the generation it
	 * named, by seq).
	 */
	uint32_t gen;
	/* 0, 1, 2...: the order tasks became known in; an index for others' per-task arrays. */
	uint32_t seq;
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
struct f2t_task *f2t_tasks_find_slow(const struct f2t_tasks *t, int32_t tid);

/* The task with TID, or NULL; for the table's owner, who may change it. */
static inline struct f2t_task *f2t_tasks_find_mut(struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task = t->recent[(uint32_t)tid % F2T_TASKS_RECENT];

	return task && task->tid == tid ? task : f2t_tasks_find_slow(t, tid);
}

/* The task with TID, or NULL. */
static inline const struct f2t_task *f2t_tasks_find(const struct f2t_tasks *t, int32_t tid)
{
	const struct f2t_task *task = t->recent[(uint32_t)tid % F2T_TASKS_RECENT];

	return task && task->tid == tid ? task : f2t_tasks_find_slow(t, tid);
}

/*
 * TASK as the table makes a task it did not know: tgid = TID, comm "<...>"
 * ("swapper" for the idle task, 0), prio -1, generation 1, seq 0.
 */
void f2t_task_init(struct f2t_task *task, int32_t tid);

/* f2t_tasks_get() of a task not known yet. */
struct f2t_task *f2t_tasks_add(struct f2t_tasks *t, int32_t tid);

/* The task with TID, created (f2t_task_init()) if unknown. NULL on ENOMEM. */
static inline struct f2t_task *f2t_tasks_get(struct f2t_tasks *t, int32_t tid)
{
	struct f2t_task *task = f2t_tasks_find_mut(t, tid);

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

/*
 * f2t_comm_eq() of a COMM with F2T_COMM_LEN readable bytes, as an event
 * whose comm_words is set has them (event.h): where the byte loop took a
 * tenth of a scheduling trace's conversion, the fifteen bytes a comm holds
 * are compared whole, as two words.  The same bytes are the same name,
 * and they are so most often: the kernel's records and a task's name
 * (f2t_task_change()) have zeros after the NUL.  Any other difference may
 * lie after HAVE's NUL (a longer earlier name's bytes), where it does not
 * count: the byte loop decides.
 */
static inline bool f2t_comm_eq_words(const char *have, const char *comm)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t a[2], b[2];

	memcpy(a, have, sizeof(a));
	memcpy(b, comm, sizeof(b));
	/* The 16th byte, the last word's highest, is past what a comm holds. */
	if (!((a[0] ^ b[0]) | ((a[1] ^ b[1]) & (~0ull >> 8))))
		return true;
#endif
	return f2t_comm_eq(have, comm);
}

/*
 * strnlen(COMM, F2T_COMM_LEN) of a COMM with F2T_COMM_LEN readable bytes
 * (as f2t_comm_eq_words() has it), eight bytes at a time: for a writer
 * that copies the name of every wakeup.
 */
static inline size_t f2t_comm_len_words(const char *comm)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

	for (int i = 0; i < 2; i++) {
		uint64_t a, nul;

		memcpy(&a, comm + 8 * i, 8);
		nul = (a - ones) & ~a & highs;	/* its lowest bit is the first NUL's, exactly */
		if (nul)
			return 8 * (size_t)i + (size_t)__builtin_ctzll(nul) / 8;
	}
	return F2T_COMM_LEN;
#else
	return strnlen(comm, F2T_COMM_LEN);
#endif
}

/* f2t_task_set() when something changes. */
void f2t_task_change(struct f2t_task *task, const char *comm, int32_t tgid);

/* Sets comm and/or tgid (NULL / 0 leave them), bumping gen if they changed. */
static inline void f2t_task_set(struct f2t_task *task, const char *comm, int32_t tgid)
{
	if ((comm && !f2t_comm_eq(task->comm, comm)) || (tgid > 0 && task->tgid != tgid))
		f2t_task_change(task, comm, tgid);
}

/* f2t_task_set() of a comm alone, with F2T_COMM_LEN readable bytes if WORDS (f2t_comm_eq_words()). */
static inline void f2t_task_name(struct f2t_task *task, const char *comm, bool words)
{
	if (words ? !f2t_comm_eq_words(task->comm, comm) : !f2t_comm_eq(task->comm, comm))
		f2t_task_change(task, comm, 0);
}

/* Calls FN for every task, in the order they became known.  Stops early if FN returns non-zero. */
int f2t_tasks_each(const struct f2t_tasks *t, int (*fn)(const struct f2t_task *, void *),
		   void *ctx);
uint32_t f2t_tasks_count(const struct f2t_tasks *t);

/*
 * Parses a snapshot ("TID TGID COMM\n" lines, comm to end of line) into T.
 * Returns the number of tasks read, or -EINVAL with *bad_line set.
 */
int f2t_tasks_load_snapshot(struct f2t_tasks *t, const char *text, size_t len,
			    int *bad_line);

#endif
