// SPDX-License-Identifier: MIT
/*
 * The per-thread table: the columns (one list: their CSV and JSON names,
 * and what --sort takes), the threads the filters select, grouped under
 * their processes with a roll-up each, sorted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-local.h"
#include "util/sort.h"
#include "util/vec.h"

static const struct {
	const char *name;
	bool needs_wakeups;
} cols[C_COUNT] = {
	[C_LIFE] = { .name = "life_ns" },
	[C_RUNNING] = { .name = "running_ns" },
	[C_WOKEN] = { .name = "runnable_woken_ns" },
	[C_PREEMPTED] = { .name = "runnable_preempted_ns" },
	[C_SLEEPING] = { .name = "sleeping_ns" },
	[C_BLOCKED] = { .name = "blocked_ns" },
	[C_IDLE] = { .name = "idle_ns" },
	[C_STOPPED] = { .name = "stopped_ns" },
	[C_UNKNOWN] = { .name = "unknown_ns" },
	[C_VOL] = { .name = "switches_voluntary" },
	[C_INVOL] = { .name = "switches_involuntary" },
	[C_MIGRATIONS] = { .name = "migrations" },
	[C_WAKEUPS] = { .name = "wakeups" },
	[C_P50] = { .name = "wakeup_p50_ns", .needs_wakeups = true },
	[C_P90] = { .name = "wakeup_p90_ns", .needs_wakeups = true },
	[C_P99] = { .name = "wakeup_p99_ns", .needs_wakeups = true },
	[C_MAX] = { .name = "wakeup_max_ns", .needs_wakeups = true },
	[C_MAX_AT] = { .name = "wakeup_max_at_ns", .needs_wakeups = true },
	[C_MAX_CPU] = { .name = "wakeup_max_cpu", .needs_wakeups = true },
	[C_PREEMPT_WAITS] = { .name = "preempted_waits" },
	[C_PREEMPT_MAX] = { .name = "preempted_wait_max_ns" },
};

/* The state each time column sums. */
static const enum f2t_tstate col_state[] = {
	[C_RUNNING] = F2T_TS_RUNNING, [C_WOKEN] = F2T_TS_WOKEN,
	[C_PREEMPTED] = F2T_TS_PREEMPTED, [C_SLEEPING] = F2T_TS_SLEEPING,
	[C_BLOCKED] = F2T_TS_BLOCKED, [C_IDLE] = F2T_TS_IDLE, [C_STOPPED] = F2T_TS_STOPPED,
	[C_UNKNOWN] = F2T_TS_UNKNOWN,
};

const char *f2t_report_col_name(enum f2t_report_col c)
{
	return cols[c].name;
}

bool f2t_report_col_needs_wakeups(enum f2t_report_col c)
{
	return cols[c].needs_wakeups;
}

/* Sort keys besides the columns. */
enum { KEY_TID = C_COUNT, KEY_PID, KEY_COMM };

/* The key @name names ("running" for "running_ns" too), or -1. */
static int sort_key(const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(name, "tid"))
		return KEY_TID;
	if (!strcmp(name, "pid"))
		return KEY_PID;
	if (!strcmp(name, "comm"))
		return KEY_COMM;
	for (int c = 0; c < C_COUNT; c++) {
		size_t clen = strlen(cols[c].name);

		if (!strcmp(name, cols[c].name) ||
		    (clen == len + 3 && !strncmp(name, cols[c].name, len) &&
		     !strcmp(cols[c].name + len, "_ns")))
			return c;
	}
	return -1;
}

int f2t_report_sort_ok(const char *name)
{
	return sort_key(name) >= 0;
}

void f2t_report_columns(char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "tid, pid, comm");

	for (int c = 0; c < C_COUNT && used < len; c++)
		used += (size_t)snprintf(buf + used, len - used, ", %s", cols[c].name);
}

static bool has(const int32_t *ids, size_t n, int32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool f2t_report_selects(const struct f2t_report *r, int32_t tid)
{
	const struct f2t_report_opts *o = &r->o;
	int32_t pid = f2t_report_pid_of(r, tid);
	const char *comm = f2t_report_comm(r, tid), *pcomm = f2t_report_comm(r, pid);
	bool named = !o->ncomms;

	if (o->npids && !has(o->pids, o->npids, pid))
		return false;
	if (o->ntids && !has(o->tids, o->ntids, tid))
		return false;
	for (size_t i = 0; i < o->ncomms && !named; i++)
		named = !strcmp(o->comms[i], comm) || !strcmp(o->comms[i], pcomm);
	return named;
}

/* The percentiles and the max of @row from its histogram. */
static void latencies(struct f2t_row *row)
{
	const struct f2t_lathist *h = row->hist;

	if (!h || !h->count)
		return;
	row->v[C_P50] = f2t_lathist_percentile(h, 50);
	row->v[C_P90] = f2t_lathist_percentile(h, 90);
	row->v[C_P99] = f2t_lathist_percentile(h, 99);
}

struct collect {
	const struct f2t_report *r;
	struct f2t_table *t;
	size_t cap;
};

static int collect(void *ctx, int32_t tid, void *user)
{
	struct collect *c = ctx;
	const struct f2t_report *r = c->r;
	struct f2t_rthread *rt = user;
	uint64_t first = f2t_tstates_first(r->ts);
	struct f2t_row *row;

	if (!rt->seen)
		return 0;
	if (f2t_vec_reserve(&c->t->rows, &c->cap, c->t->nrows + 1, 256))
		return -ENOMEM;
	row = &c->t->rows[c->t->nrows];
	*row = (struct f2t_row){ .tid = tid, .pid = f2t_report_pid_of(r, tid),
				 .comm = f2t_report_comm(r, tid), .nthreads = 1,
				 .hist = rt->hist };
	if (!f2t_report_selects(r, tid))
		return 0;
	for (int col = C_RUNNING; col <= C_UNKNOWN; col++) {
		row->v[col] = rt->ns[col_state[col]];
		row->v[C_LIFE] += row->v[col];
	}
	row->v[C_VOL] = rt->vol;
	row->v[C_INVOL] = rt->invol;
	row->v[C_MIGRATIONS] = rt->migrations;
	row->v[C_WAKEUPS] = rt->hist ? rt->hist->count : 0;
	row->v[C_PREEMPT_WAITS] = rt->preempt_waits;
	row->v[C_PREEMPT_MAX] = rt->preempt_max;
	if (row->v[C_WAKEUPS]) {
		row->wmax = &rt->wmax;
		row->v[C_MAX] = rt->wmax.ns;
		row->v[C_MAX_AT] = rt->wmax.start - first;
		row->v[C_MAX_CPU] = rt->wmax.cpu;
		latencies(row);
	}
	c->t->nrows++;
	return 0;
}

/* Sums @th into the process row @p. */
static int roll_up(struct f2t_row *p, const struct f2t_row *th)
{
	for (int col = C_LIFE; col <= C_WAKEUPS; col++)
		p->v[col] += th->v[col];
	p->v[C_PREEMPT_WAITS] += th->v[C_PREEMPT_WAITS];
	if (th->v[C_PREEMPT_MAX] > p->v[C_PREEMPT_MAX])
		p->v[C_PREEMPT_MAX] = th->v[C_PREEMPT_MAX];
	if (!th->hist || !th->hist->count)
		return 0;
	if (!p->wmax || th->v[C_MAX] > p->v[C_MAX]) {
		p->wmax = th->wmax;
		p->v[C_MAX] = th->v[C_MAX];
		p->v[C_MAX_AT] = th->v[C_MAX_AT];
		p->v[C_MAX_CPU] = th->v[C_MAX_CPU];
	}
	if (!p->hist) {
		p->hist = th->hist;	/* one thread's so far: shared, not copied */
		return 0;
	}
	if (!p->own_hist) {
		struct f2t_lathist *h = malloc(sizeof(*h));

		if (!h)
			return -ENOMEM;
		*h = *p->hist;
		p->hist = h;
		p->own_hist = true;
	}
	f2t_lathist_merge(p->hist, th->hist);
	return 0;
}

static int cmp_key(const struct f2t_row *a, const struct f2t_row *b, int key)
{
	int c;

	switch (key) {
	case KEY_COMM:
		c = strcmp(a->comm, b->comm);
		break;
	case KEY_PID:
		c = (a->pid > b->pid) - (a->pid < b->pid);
		break;
	case KEY_TID:
		c = 0;
		break;
	default:
		/* Largest first; rows with no value for the column last. */
		c = (a->v[key] < b->v[key]) - (a->v[key] > b->v[key]);
		if (cols[key].needs_wakeups && !a->v[C_WAKEUPS] != !b->v[C_WAKEUPS])
			c = !a->v[C_WAKEUPS] - !b->v[C_WAKEUPS];
		break;
	}
	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

static int cmp_rows(const void *a, const void *b, void *key)
{
	return cmp_key(*(struct f2t_row *const *)a, *(struct f2t_row *const *)b, *(int *)key);
}

static int cmp_groups(const void *a, const void *b, void *key)
{
	const struct f2t_row *x = &((const struct f2t_group *)a)->proc;
	const struct f2t_row *y = &((const struct f2t_group *)b)->proc;
	int c = cmp_key(x, y, *(int *)key);

	return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_pid(const void *a, const void *b, void *unused)
{
	int key = KEY_PID;

	return cmp_rows(a, b, &key);
}

static int group(const struct f2t_report *r, struct f2t_table *t, int key)
{
	struct f2t_row **rows = t->order;

	f2t_sort_r(rows, t->nrows, sizeof(*rows), by_pid, NULL);
	t->groups = calloc(t->nrows ? t->nrows : 1, sizeof(*t->groups));
	if (!t->groups)
		return -ENOMEM;
	for (size_t i = 0; i < t->nrows;) {
		struct f2t_group *g = &t->groups[t->ngroups++];
		size_t j = i;

		g->threads = &rows[i];
		g->proc = (struct f2t_row){ .tid = -1, .pid = rows[i]->pid };
		for (; j < t->nrows && rows[j]->pid == rows[i]->pid; j++)
			if (roll_up(&g->proc, rows[j]))
				return -ENOMEM;
		g->n = j - i;
		g->proc.nthreads = (uint32_t)g->n;
		g->proc.comm = f2t_tasks_find(r->rec->tasks, g->proc.pid) ?
			f2t_report_comm(r, g->proc.pid) : rows[i]->comm;
		latencies(&g->proc);
		f2t_sort_r(g->threads, g->n, sizeof(*g->threads), cmp_rows, &key);
		i = j;
	}
	f2t_sort_r(t->groups, t->ngroups, sizeof(*t->groups), cmp_groups, &key);
	return 0;
}

/* The processes not the recording's (f2t_report_focused()), summed into t->others. */
static int sum_others(const struct f2t_report *r, struct f2t_table *t)
{
	struct f2t_row *others = &t->others;

	for (size_t i = 0; i < t->ngroups; i++) {
		const struct f2t_group *g = &t->groups[i];

		if (f2t_report_focused(r, g->proc.pid))
			continue;
		if (roll_up(others, &g->proc))
			return -ENOMEM;
		others->nthreads += g->proc.nthreads;
		others->nprocs++;
	}
	latencies(others);
	return 0;
}

int f2t_report_table(const struct f2t_report *r, struct f2t_table *t)
{
	struct collect c = { .r = r, .t = t };
	int key = sort_key(r->o.sort ? r->o.sort : "running");
	int ret;

	memset(t, 0, sizeof(*t));
	t->filtered = r->o.npids || r->o.ntids || r->o.ncomms;
	ret = f2t_tstates_each(r->ts, collect, &c);
	if (!ret && !(t->order = calloc(t->nrows ? t->nrows : 1, sizeof(*t->order))))
		ret = -ENOMEM;
	if (ret) {
		f2t_report_table_free(t);
		return ret;
	}
	for (size_t i = 0; i < t->nrows; i++) {
		t->order[i] = &t->rows[i];
		if (t->rows[i].hist)
			f2t_lathist_merge(&t->all, t->rows[i].hist);
	}
	ret = group(r, t, key < 0 ? C_RUNNING : key);
	t->others = (struct f2t_row){ .pid = -1, .tid = -1 };
	if (!ret && r->focus.n && !t->filtered && !r->o.all_processes)
		ret = sum_others(r, t);
	if (ret)
		f2t_report_table_free(t);
	return ret;
}

void f2t_report_table_free(struct f2t_table *t)
{
	for (size_t i = 0; i < t->ngroups; i++)
		if (t->groups[i].proc.own_hist)
			free(t->groups[i].proc.hist);
	if (t->others.own_hist)
		free(t->others.hist);
	free(t->groups);
	free(t->order);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

size_t f2t_report_top(const struct f2t_report *r, size_t n)
{
	return r->o.top && r->o.top < n ? r->o.top : n;
}
