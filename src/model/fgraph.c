// SPDX-License-Identifier: MIT
/*
 * Per-thread call stacks for function-graph events: from thread (idmap.h)
 * to its open calls, and for each thread what an exit without an entry
 * must enclose (see fgraph.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/fgraph.h"
#include "util/idmap.h"
#include "util/vec.h"

/* Depths we track for complete slices; deeper unmatched exits are rare. */
#define MAX_LO 64
/* The kernel's own limit is far lower: beyond this a depth is garbage. */
#define MAX_DEPTH 4096

struct frame {
	uint64_t func;
	uint64_t start;
	uint32_t depth;
};

struct thr {
	struct frame *stack;
	uint32_t n;
	size_t cap;
	/*
	 * lo[d]: the earliest start of a slice deeper than d shown since a
	 * slice at depth d or less last ended.  Those are what an exit at
	 * depth d without its entry must hold (they ran inside it).
	 */
	uint64_t lo[MAX_LO];
};

struct f2t_fgraph {
	struct f2t_idmap threads;	/* key -> struct thr */
	uint64_t unmatched;
};

struct f2t_fgraph *f2t_fgraph_new(void)
{
	struct f2t_fgraph *g = calloc(1, sizeof(*g));

	if (!g || f2t_idmap_init(&g->threads, sizeof(struct thr))) {
		free(g);
		errno = ENOMEM;
		return NULL;
	}
	return g;
}

void f2t_fgraph_free(struct f2t_fgraph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->threads.n; i++)
		free(((struct thr *)f2t_idmap_at(&g->threads, i, NULL))->stack);
	f2t_idmap_fini(&g->threads);
	free(g);
}

uint64_t f2t_fgraph_unmatched(const struct f2t_fgraph *g)
{
	return g->unmatched;
}

static struct thr *thread_of(struct f2t_fgraph *g, int64_t key)
{
	bool fresh;
	struct thr *t = f2t_idmap_get(&g->threads, key, &fresh);

	if (t && fresh)
		memset(t->lo, 0xff, sizeof(t->lo));
	return t;
}

/* A slice at DEPTH ended: nothing shown before it can be inside a later call at DEPTH or deeper. */
static void ended(struct thr *t, uint32_t depth)
{
	for (uint32_t d = depth; d < MAX_LO; d++)
		t->lo[d] = UINT64_MAX;
}

/* A slice at DEPTH began at TS: it runs inside whatever shallower call encloses it. */
static void began(struct thr *t, uint32_t depth, uint64_t ts)
{
	for (uint32_t d = 0; d < depth && d < MAX_LO; d++)
		if (ts < t->lo[d])
			t->lo[d] = ts;
}

/* Ends the open calls deeper than DEPTH (or as deep, when OR_EQUAL): their exits were lost. */
static unsigned int unwind(struct thr *t, uint32_t depth, bool or_equal)
{
	unsigned int n = 0;

	while (t->n && (t->stack[t->n - 1].depth > depth ||
			(or_equal && t->stack[t->n - 1].depth == depth))) {
		ended(t, t->stack[--t->n].depth);
		n++;
	}
	return n;
}

static int push(struct thr *t, uint64_t func, uint32_t depth, uint64_t ts)
{
	if (f2t_vec_reserve(&t->stack, &t->cap, t->n + 1, 16))
		return -ENOMEM;
	t->stack[t->n++] = (struct frame){ .func = func, .start = ts, .depth = depth };
	began(t, depth, ts);
	return 0;
}

/* An exit whose entry was not seen: where its whole slice starts. */
static uint64_t orphan_start(const struct thr *t, const struct f2t_event *ev)
{
	uint64_t d = ev->graph.rettime > ev->graph.calltime ?
			     ev->graph.rettime - ev->graph.calltime : 0;
	uint64_t start = d < ev->ts ? ev->ts - d : 0;
	uint32_t depth = ev->graph.depth;

	/*
	 * Hold every call already shown as running inside it, beginning
	 * strictly before the first: at one timestamp, a viewer could put
	 * either slice inside the other.
	 */
	if (depth < MAX_LO && t->lo[depth] <= start && t->lo[depth])
		start = t->lo[depth] - 1;
	/* ...and stay inside the call that encloses it. */
	if (t->n && t->stack[t->n - 1].start > start)
		start = t->stack[t->n - 1].start;
	return start;
}

int f2t_fgraph_event(struct f2t_fgraph *g, const struct f2t_event *ev,
		     struct f2t_fg_step *step)
{
	int64_t key = ev->pid > 0 ? ev->pid : -(int64_t)ev->cpu - 1;
	uint32_t depth = ev->graph.depth;
	struct thr *t;

	memset(step, 0, sizeof(*step));
	if (depth > MAX_DEPTH)
		return 0;
	t = thread_of(g, key);
	if (!t)
		return -ENOMEM;
	if (ev->kind == F2T_EV_FUNCGRAPH_ENTRY) {
		/* An open call as deep as this one never returned, as far as we saw. */
		step->close = unwind(t, depth, true);
		if (push(t, ev->graph.func, depth, ev->ts))
			return -ENOMEM;
		step->begin = true;
		return 0;
	}
	step->close = unwind(t, depth, false);
	if (t->n && t->stack[t->n - 1].depth == depth) {
		bool match = t->stack[t->n - 1].func == ev->graph.func;

		/* Ours, or one at our depth whose exit was lost: ends either way. */
		ended(t, t->stack[--t->n].depth);
		step->close++;
		if (match)
			return 0;
	}
	step->complete = true;
	step->start = orphan_start(t, ev);
	ended(t, depth);
	began(t, depth, step->start);
	g->unmatched++;
	return 0;
}
