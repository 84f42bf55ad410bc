// SPDX-License-Identifier: MIT
/*
 * Off-CPU report: episodes are summed under a key made of the thread, its
 * state and its stack (frames outermost first, joined by ';', the folded
 * form), and wakers under their episode key, the waker thread and its
 * stack.  Stacks are the profile stage's (model/profile.h), run here as
 * the writers' model runs it: the frames of its stack tree by name, as
 * JSON's stackFrames and the flame graphs of the other outputs name them.
 * Keys are interned once (util/intern.h), their sums kept by id, so memory
 * grows with distinct stacks, never with episodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/offcpu.h"
#include "model/profile.h"
#include "model/stats.h"
#include "report/offcpu.h"
#include "util/idmap.h"
#include "util/intern.h"
#include "util/log.h"
#include "util/out.h"
#include "util/sort.h"
#include "util/vec.h"

#define KEY_MAX 16384

/* Sums under interned string keys. */
struct sum {
	size_t head;		/* bytes of the key before the stack */
	uint64_t ns, n;
	int32_t tid;
	char state;		/* episodes */
	size_t entry;		/* wakers: their episode key */
	bool irq;		/* wakers: woken from an interrupt */
};

struct table {
	struct f2t_intern keys;	/* the sum of key id i is v[i] */
	struct sum *v;
	size_t n, cap;
};

struct thread_sum {
	uint64_t ns[3];		/* S, D, other */
	uint64_t n;
};

/* A node of the profile's stack tree: its parent and its name, in names. */
struct node {
	uint32_t parent, name;
};

struct f2t_offcpu_report {
	struct table stacks, wakers;
	struct f2t_profile *prof;
	struct f2t_intern names;
	struct node *nodes;		/* by id - 1 */
	size_t nnodes, nodecap;
	uint32_t *chain;		/* a stack's nodes, innermost first */
	size_t chaincap;
	struct f2t_idmap threads;	/* tid -> struct thread_sum */
	const char *path;		/* the input, for messages (f2t_offcpu_report_tap()) */
	struct f2t_stats st;		/* the run's counts, once it ended */
	char key[KEY_MAX];
};

/* The sum for KEY, added (zeroed) if new.  NULL on ENOMEM. */
static struct sum *table_get(struct table *t, const char *key, size_t len)
{
	bool fresh;
	int64_t id;

	if (f2t_vec_reserve(&t->v, &t->cap, t->n + 1, 256))
		return NULL;
	id = f2t_intern(&t->keys, key, len, &fresh);
	if (id < 0)
		return NULL;
	if (fresh)
		t->v[t->n++] = (struct sum){ 0 };
	return &t->v[id];
}

/* The key @e is the sum of, and its length in *@len (may be NULL). */
static const char *key_of(const struct table *t, const struct sum *e, size_t *len)
{
	return f2t_intern_key(&t->keys, (size_t)(e - t->v), len);
}

static void table_fini(struct table *t)
{
	free(t->v);
	f2t_intern_fini(&t->keys);
}

struct f2t_offcpu_report *f2t_offcpu_report_new(void)
{
	struct f2t_offcpu_report *r = calloc(1, sizeof(*r));

	if (!r || f2t_idmap_init(&r->threads, sizeof(struct thread_sum)) ||
	    !(r->prof = f2t_profile_new())) {
		f2t_offcpu_report_free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void f2t_offcpu_report_free(struct f2t_offcpu_report *r)
{
	if (!r)
		return;
	table_fini(&r->stacks);
	table_fini(&r->wakers);
	f2t_idmap_fini(&r->threads);
	f2t_profile_free(r->prof);
	f2t_intern_fini(&r->names);
	free(r->nodes);
	free(r->chain);
	free(r);
}

/* The profile's stack-tree nodes, kept by id; its other definitions are the writers'. */
static int keep_node(void *ctx, const struct f2t_item *it)
{
	struct f2t_offcpu_report *r = ctx;
	struct node *nd;
	int64_t name;

	if (it->kind != F2T_ITEM_STACK_NODE)
		return 0;
	name = f2t_intern(&r->names, it->def.node->name.s, it->def.node->name.len, NULL);
	nd = name < 0 || name > UINT32_MAX ? NULL :
		f2t_vec_push(&r->nodes, &r->nnodes, &r->nodecap, 1024);
	if (!nd)
		return -ENOMEM;
	/* A parent is an earlier node: the walk up ends. */
	*nd = (struct node){ it->def.node->parent < it->def.node->id ? it->def.node->parent : 0,
			     (uint32_t)name };
	return 0;
}

/*
 * The @n frames of @frames (innermost first) in process @pid, outermost
 * first, ';' between them, after @at bytes of the key, as the profile's
 * stack tree names them.  Return: the key's length, or -ENOMEM.
 */
static int64_t folded(struct f2t_offcpu_report *r, const struct f2t_event *ev, int32_t pid,
		      const struct f2t_frame *frames, uint32_t n, size_t at)
{
	struct f2t_item use = { .ts = ev->ts, .ev = ev,
				.track = { F2T_TRACK_THREAD, pid, ev->pid, 0 } };
	struct f2t_stack_ref ref;
	size_t depth = 0;
	int ret;

	if (!n)
		return (int64_t)at;
	ret = f2t_profile_stack(r->prof, pid, frames, n, true, &use, keep_node, r, &ref);
	if (ret)
		return ret;
	for (uint32_t id = ref.node; id && id <= r->nnodes; id = r->nodes[id - 1].parent) {
		if (f2t_vec_reserve(&r->chain, &r->chaincap, depth + 1, 64))
			return -ENOMEM;
		r->chain[depth++] = id;
	}
	for (size_t i = depth; i-- > 0 && at + 2 < KEY_MAX;) {
		size_t len;
		const char *name = f2t_intern_key(&r->names, r->nodes[r->chain[i] - 1].name, &len);

		if (i + 1 < depth)
			r->key[at++] = ';';
		if (len > KEY_MAX - 1 - at)
			len = KEY_MAX - 1 - at;
		/* ';' separates frames and the last ' ' the count: neither inside a name. */
		for (size_t k = 0; k < len; k++)
			r->key[at + k] = name[k] == ';' || name[k] == ' ' ? '_' : name[k];
		at += len;
	}
	return (int64_t)at;
}

/*
 * Woken from an interrupt: the frames up to its entry, or 0 when not.  The
 * waker is then whatever the interrupt came in on, and the frames below
 * the entry are that task's, not the wakeup's.
 */
static uint32_t interrupt_depth(const struct f2t_frame *f, uint32_t n)
{
	static const char *const entries[] = { "asm_sysvec_", "asm_common_interrupt",
					       "asm_exc_", "__do_softirq" };

	for (uint32_t i = 0; i < n && f[i].kernel; i++)
		for (size_t k = 0; f[i].func && k < sizeof(entries) / sizeof(entries[0]); k++)
			if (!strncmp(f[i].func, entries[k], strlen(entries[k])))
				return i + 1;
	return 0;
}

static int state_slot(char s)
{
	return s == 'S' ? 0 : s == 'D' ? 1 : 2;
}

int f2t_offcpu_report_add(struct f2t_offcpu_report *r, const struct f2t_event *ev)
{
	uint64_t ns = ev->ts - ev->offcpu.start;
	struct thread_sum *t;
	struct sum *e, *w;
	size_t at, entry;
	int64_t len;
	uint32_t irq;

	if (ev->kind != F2T_EV_OFFCPU)
		return 0;
	t = f2t_idmap_get(&r->threads, ev->pid, NULL);
	if (!t)
		return -ENOMEM;
	t->ns[state_slot(ev->offcpu.state)] += ns;
	t->n++;
	len = folded(r, ev, ev->offcpu.tgid, ev->offcpu.frames, ev->offcpu.nframes,
		     (size_t)snprintf(r->key, KEY_MAX, "%d %c ", ev->pid, ev->offcpu.state));
	if (len < 0)
		return (int)len;
	at = (size_t)len;
	e = table_get(&r->stacks, r->key, at);
	if (!e)
		return -ENOMEM;
	if (!e->n) {
		const char *key = key_of(&r->stacks, e, NULL);

		e->head = (size_t)(strchr(strchr(key, ' ') + 1, ' ') + 1 - key);
		e->tid = ev->pid;
		e->state = ev->offcpu.state;
	}
	e->ns += ns;
	e->n++;
	if (ev->offcpu.waker_tid <= 0)
		return 0;
	entry = (size_t)(e - r->stacks.v);
	irq = interrupt_depth(ev->offcpu.waker_frames, ev->offcpu.waker_nframes);
	len = folded(r, ev, ev->offcpu.waker_tgid, ev->offcpu.waker_frames,
		     irq ? irq : ev->offcpu.waker_nframes,
		     (size_t)snprintf(r->key, KEY_MAX, "%zu %d %c", entry, ev->offcpu.waker_tid,
				      irq ? 'i' : ' '));
	if (len < 0)
		return (int)len;
	at = (size_t)len;
	w = table_get(&r->wakers, r->key, at);
	if (!w)
		return -ENOMEM;
	if (!w->n) {
		const char *key = key_of(&r->wakers, w, NULL);

		w->head = (size_t)(strchr(strchr(key, ' ') + 1, ' ') + 2 - key);
		w->tid = ev->offcpu.waker_tid;
		w->entry = entry;
		w->irq = irq != 0;
	}
	w->ns += ns;
	w->n++;
	return 0;
}

uint64_t f2t_offcpu_report_thread_ns(const struct f2t_offcpu_report *r, int32_t tid, char state)
{
	const struct thread_sum *t = f2t_idmap_find(&r->threads, tid);

	if (!t)
		return 0;
	return state ? t->ns[state_slot(state)] : t->ns[0] + t->ns[1] + t->ns[2];
}

static const char *name_of(const struct f2t_tasks *tasks, int32_t tid)
{
	const struct f2t_task *t = tasks ? f2t_tasks_find(tasks, tid) : NULL;

	return t && t->comm[0] ? t->comm : "?";
}

/* Indices 0..n-1 sorted by NS, largest first (ties: first added first). */
static const void *sort_base;
static size_t sort_size;

static uint64_t ns_at(size_t i)
{
	return *(const uint64_t *)((const char *)sort_base + i * sort_size);
}

static int by_ns(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (ns_at(x) != ns_at(y))
		return ns_at(x) > ns_at(y) ? -1 : 1;
	return x < y ? -1 : x > y;
}

static size_t *sorted(const void *base, size_t size, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_base = base;
	sort_size = size;
	f2t_sort(idx, n, sizeof(*idx), by_ns);
	return idx;
}

/* The frames of a folded stack, innermost first, one a line. */
static void put_frames(struct f2t_out *f, const char *stack, const char *indent)
{
	const char *end = stack + strlen(stack);

	if (!*stack) {
		f2t_out_printf(f, "%s[no stack]\n", indent);
		return;
	}
	while (end > stack) {
		const char *semi = end;

		while (semi > stack && semi[-1] != ';')
			semi--;
		f2t_out_printf(f, "%s%.*s\n", indent, (int)(end - semi), semi);
		end = semi > stack ? semi - 1 : stack;
	}
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* One thread_sum's total (the sort key): its three states summed into a copy. */
struct thread_row {
	uint64_t total;
	int32_t tid;
	const struct thread_sum *t;
};

static void print_threads(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			  unsigned int top, struct f2t_out *f, struct thread_row *rows, size_t *idx)
{
	const struct f2t_task *task;

	f2t_out_printf(f, "Blocked time by thread (S: sleeping, D: uninterruptible, other: T t P I)\n"
		   "%8s %-16s %8s %12s %12s %12s %12s %9s\n", "TID", "THREAD", "PID", "total ms",
		"S ms", "D ms", "other ms", "episodes");
	for (size_t k = 0; k < r->threads.n && k < top; k++) {
		const struct thread_row *row = &rows[idx[k]];

		task = tasks ? f2t_tasks_find(tasks, row->tid) : NULL;
		f2t_out_printf(f, "%8d %-16s %8d %12.3f %12.3f %12.3f %12.3f %9llu\n", row->tid,
			name_of(tasks, row->tid), task ? task->tgid : 0, ms(row->total),
			ms(row->t->ns[0]), ms(row->t->ns[1]), ms(row->t->ns[2]),
			(unsigned long long)row->t->n);
	}
}

static void print_stack(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			size_t rank, const struct sum *e, const size_t *widx, struct f2t_out *f)
{
	uint64_t thread_ns = f2t_offcpu_report_thread_ns(r, e->tid, 0);
	unsigned int shown = 0;

	f2t_out_printf(f, "\n#%zu  %s (%d)  %c  %.3f ms in %llu episodes, %.1f%% of the thread's\n",
		rank, name_of(tasks, e->tid), e->tid, e->state, ms(e->ns),
		(unsigned long long)e->n, thread_ns ? 100.0 * (double)e->ns / (double)thread_ns : 0.0);
	put_frames(f, key_of(&r->stacks, e, NULL) + e->head, "      ");
	for (size_t k = 0; k < r->wakers.n && shown < 2; k++) {
		const struct sum *w = &r->wakers.v[widx[k]];

		if (&r->stacks.v[w->entry] != e)
			continue;
		if (w->irq)
			f2t_out_printf(f, "    woken in an interrupt (on %s (%d)'s time): %.3f ms, %llu times, from\n",
				name_of(tasks, w->tid), w->tid, ms(w->ns), (unsigned long long)w->n);
		else
			f2t_out_printf(f, "    woken by %s (%d): %.3f ms, %llu times, from\n",
				name_of(tasks, w->tid), w->tid, ms(w->ns), (unsigned long long)w->n);
		put_frames(f, key_of(&r->wakers, w, NULL) + w->head, "      ");
		shown++;
	}
	if (!shown)
		f2t_out_puts(f, "    no wakeup seen\n");
}

int f2t_offcpu_report_print(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			    unsigned int top, struct f2t_out *f)
{
	struct thread_row *rows = calloc(r->threads.n ? r->threads.n : 1, sizeof(*rows));
	size_t *tidx = NULL, *sidx = NULL, *widx = NULL;
	int ret = -ENOMEM;

	if (!rows)
		goto out;
	for (size_t i = 0; i < r->threads.n; i++) {
		int64_t tid;
		const struct thread_sum *t = f2t_idmap_at(&r->threads, i, &tid);

		rows[i] = (struct thread_row){ t->ns[0] + t->ns[1] + t->ns[2], (int32_t)tid, t };
	}
	tidx = sorted(rows, sizeof(*rows), r->threads.n);
	sidx = sorted(r->stacks.v ? (const void *)&r->stacks.v[0].ns : "", sizeof(struct sum),
		      r->stacks.n);
	widx = sorted(r->wakers.v ? (const void *)&r->wakers.v[0].ns : "", sizeof(struct sum),
		      r->wakers.n);
	if (!tidx || !sidx || !widx)
		goto out;
	print_threads(r, tasks, top, f, rows, tidx);
	f2t_out_printf(f, "\nTop %u stacks by blocked time (innermost frame first; kernel, then user)\n",
		top);
	for (size_t k = 0; k < r->stacks.n && k < top; k++)
		print_stack(r, tasks, k + 1, &r->stacks.v[sidx[k]], widx, f);
	ret = 0;
out:
	free(rows);
	free(tidx);
	free(sidx);
	free(widx);
	return ret;
}

/* Key ids @a and @b of the table @arg in the order of their keys. */
static int by_key(const void *a, const void *b, void *arg)
{
	const struct f2t_intern *keys = arg;

	return strcmp(f2t_intern_key(keys, *(const size_t *)a, NULL),
		      f2t_intern_key(keys, *(const size_t *)b, NULL));
}

int f2t_offcpu_report_folded_each(const struct f2t_offcpu_report *r,
				  const struct f2t_tasks *tasks,
				  int (*line)(void *ctx, const char *stack, uint64_t ns), void *ctx)
{
	struct f2t_offcpu_report *lines = f2t_offcpu_report_new();
	size_t *idx = NULL;
	int ret = 0;

	if (!lines)
		return -ENOMEM;
	/* Threads of one name, and both states, share a line. */
	for (size_t i = 0; i < r->stacks.n && !ret; i++) {
		const struct sum *e = &r->stacks.v[i];
		size_t len;
		const char *key = key_of(&r->stacks, e, &len);
		int n = snprintf(lines->key, KEY_MAX, "%s%s%s", name_of(tasks, e->tid),
				 len > e->head ? ";" : "", key + e->head);
		struct sum *l = table_get(&lines->stacks, lines->key,
					  n < KEY_MAX ? (size_t)n : KEY_MAX - 1);

		if (!l)
			ret = -ENOMEM;
		else
			l->ns += e->ns;
	}
	if (!ret && !(idx = malloc((lines->stacks.n + 1) * sizeof(*idx))))
		ret = -ENOMEM;
	if (!ret) {
		for (size_t i = 0; i < lines->stacks.n; i++)
			idx[i] = i;
		f2t_sort_r(idx, lines->stacks.n, sizeof(*idx), by_key, &lines->stacks.keys);
		for (size_t i = 0; i < lines->stacks.n && !ret; i++)
			ret = line(ctx, f2t_intern_key(&lines->stacks.keys, idx[i], NULL),
				   lines->stacks.v[idx[i]].ns);
	}
	free(idx);
	f2t_offcpu_report_free(lines);
	return ret;
}

static int put_folded(void *f, const char *stack, uint64_t ns)
{
	f2t_out_printf(f, "%s %llu\n", stack, (unsigned long long)((ns + 500) / 1000));
	return 0;
}

int f2t_offcpu_report_folded(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			     struct f2t_out *f)
{
	return f2t_offcpu_report_folded_each(r, tasks, put_folded, f);
}

static int tap_event(void *ctx, const struct f2t_event *ev)
{
	struct f2t_offcpu_report *r = ctx;
	int ret = f2t_offcpu_report_add(r, ev);

	if (ret)
		f2t_err("%s: out of memory", r->path);
	return ret;
}

static int tap_end(void *ctx, const struct f2t_stats *st)
{
	struct f2t_offcpu_report *r = ctx;

	r->st = *st;
	if (!st->events[F2T_EV_OFFCPU]) {
		f2t_err("%s: no off-CPU episodes (record with --off-cpu)", r->path);
		return -ENODATA;
	}
	return 0;
}

struct f2t_tap f2t_offcpu_report_tap(struct f2t_offcpu_report *r, const char *path)
{
	r->path = path;
	return (struct f2t_tap){ .event = tap_event, .end = tap_end, .ctx = r };
}

int f2t_offcpu_report_write(const struct f2t_offcpu_report *r, const struct f2t_tasks *tasks,
			    const struct f2t_offcpu_report_opts *o, struct f2t_out *out)
{
	const struct f2t_stats *st = &r->st;

	if (o->folded)
		return f2t_offcpu_report_folded(r, tasks, out);
	f2t_out_printf(out, "%s: %llu off-CPU episodes; %llu lost in the kernel (ring buffer or "
		       "map full), %llu stacks lost (stack map collisions or full), %llu reused "
		       "stacks checked by a walk, %llu stale\n\n", r->path,
		       (unsigned long long)st->events[F2T_EV_OFFCPU],
		       (unsigned long long)st->offcpu_dropped,
		       (unsigned long long)st->offcpu_stacks_lost,
		       (unsigned long long)st->offcpu_stacks_rechecked,
		       (unsigned long long)st->offcpu_stacks_stale);
	return f2t_offcpu_report_print(r, tasks, o->top, out);
}
