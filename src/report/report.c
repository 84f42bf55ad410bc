// SPDX-License-Identifier: MIT
/*
 * The report's gathering: the thread-state stage's spans, as they end,
 * summed per thread (inside the window), per CPU and per task on each CPU;
 * the wakeup latencies into each thread's histogram; the longest wait of
 * each thread and the slow ones with what held their CPU.  See report.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-local.h"
#include "util/log.h"
#include "util/vec.h"

static int on_span(void *ctx, const struct f2t_tstate_span *s);

struct f2t_report *f2t_report_new(const struct f2t_report_opts *o,
				  const struct f2t_recording *rec)
{
	struct f2t_report *r = calloc(1, sizeof(*r));

	if (!r)
		goto nomem;
	r->o = *o;
	r->rec = rec;
	if (f2t_idmap_init(&r->cputask, sizeof(uint64_t)) || f2t_idmap_init(&r->focus, 1))
		goto nomem;
	/* "PID[,PID...]" as the recorder wrote it; anything else names nobody. */
	for (const char *p = rec->info.pids; p && *p;) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p || pid <= 0 || pid > INT32_MAX || (*end && *end != ','))
			break;
		if (!f2t_idmap_get(&r->focus, pid, NULL))
			goto nomem;
		p = *end ? end + 1 : end;
	}
	r->ts = f2t_tstates_new(sizeof(struct f2t_rthread), on_span, r);
	if (!r->ts)
		goto nomem;
	return r;
nomem:
	f2t_report_free(r);
	errno = ENOMEM;
	return NULL;
}

static int free_thread(void *ctx, int32_t tid, void *user)
{
	struct f2t_rthread *rt = user;

	free(rt->hist);
	return 0;
}

void f2t_report_free(struct f2t_report *r)
{
	if (!r)
		return;
	if (r->ts) {
		f2t_tstates_each(r->ts, free_thread, NULL);
		f2t_tstates_free(r->ts);
	}
	f2t_idmap_fini(&r->cputask);
	for (uint32_t cpu = 0; cpu < F2T_MAX_CPUS; cpu++)
		free(r->cpus[cpu].hist);
	f2t_idmap_fini(&r->focus);
	free(r->slow);
	free(r);
}

/* What ran on the wait's CPU while it waited. */
static void fill_wait(struct f2t_report *r, const struct f2t_tstate_span *s, struct f2t_wait *w)
{
	*w = (struct f2t_wait){
		.start = s->start, .ns = s->end - s->start, .tid = s->tid, .cpu = s->cpu,
		.preempted = s->state == F2T_TS_PREEMPTED, .waker = s->waker,
	};
	w->nheld = (uint8_t)f2t_tstates_holders(r->ts, s->cpu, s->start, s->end, w->held,
						F2T_REPORT_HELD, &w->complete);
}

static int add_slow(struct f2t_report *r, const struct f2t_tstate_span *s)
{
	if (f2t_vec_reserve(&r->slow, &r->slow_cap, r->nslow + 1, 64))
		return -ENOMEM;
	fill_wait(r, s, &r->slow[r->nslow++]);
	return 0;
}

/* A wait for a CPU that ended with a switch to the thread, inside the window. */
static int waited(struct f2t_report *r, const struct f2t_tstate_span *s, struct f2t_rthread *rt)
{
	uint64_t ns = s->end - s->start;

	if (s->state == F2T_TS_WOKEN) {
		struct f2t_lathist **cpu = s->cpu < F2T_MAX_CPUS ? &r->cpus[s->cpu].hist : NULL;

		if (!rt->hist && !(rt->hist = calloc(1, sizeof(*rt->hist))))
			return -ENOMEM;
		if (cpu && !*cpu && !(*cpu = calloc(1, sizeof(**cpu))))
			return -ENOMEM;
		f2t_lathist_add(rt->hist, ns);
		if (cpu)
			f2t_lathist_add(*cpu, ns);
		if (ns > rt->wmax.ns || rt->hist->count == 1)
			fill_wait(r, s, &rt->wmax);
	} else {
		rt->preempt_waits++;
		if (ns > rt->preempt_max)
			rt->preempt_max = ns;
	}
	return r->o.slow_ns && ns > r->o.slow_ns ? add_slow(r, s) : 0;
}

/* Adds @rt's running time on its last CPU to the per-CPU tally. */
static int flush_run(struct f2t_report *r, int32_t tid, struct f2t_rthread *rt)
{
	uint64_t *t;

	if (!rt->run_ns)
		return 0;
	t = f2t_idmap_get(&r->cputask, (int64_t)rt->run_cpu << 32 | (uint32_t)tid, NULL);
	if (!t)
		return -ENOMEM;
	*t += rt->run_ns;
	rt->run_ns = 0;
	return 0;
}

static int ran(struct f2t_report *r, const struct f2t_tstate_span *s, struct f2t_rthread *rt,
	       uint64_t ns, bool starts_in, bool ends_in)
{
	struct f2t_rcpu *c = &r->cpus[s->cpu];

	c->busy += ns;
	if (ns && s->cpu != rt->run_cpu) {
		int ret = flush_run(r, s->tid, rt);

		if (ret)
			return ret;
		rt->run_cpu = s->cpu;
	}
	rt->run_ns += ns;
	if (s->switched && ends_in) {
		c->switches++;
		if (s->next == F2T_TS_PREEMPTED)
			rt->invol++;
		else
			rt->vol++;
	}
	if (s->migrated && starts_in)
		rt->migrations++;
	return 0;
}

static int on_span(void *ctx, const struct f2t_tstate_span *s)
{
	struct f2t_report *r = ctx;
	struct f2t_rthread *rt = s->user;
	bool starts_in, ends_in;
	uint64_t lo, hi, ns;

	if (!r->window_set) {
		uint64_t first = f2t_tstates_first(r->ts);

		r->w0 = first + r->o.from_ns;
		r->w1 = r->o.to_ns ? first + r->o.to_ns : UINT64_MAX;
		r->window_set = true;
	}
	lo = s->start > r->w0 ? s->start : r->w0;
	hi = s->end < r->w1 ? s->end : r->w1;
	ns = hi > lo ? hi - lo : 0;
	starts_in = s->start >= r->w0 && s->start <= r->w1;
	ends_in = s->end >= r->w0 && s->end <= r->w1;
	if (s->cpu != F2T_TS_NO_CPU && s->cpu >= r->ncpus)
		r->ncpus = s->cpu + 1;
	if (s->tid == 0) {
		r->cpus[s->cpu].idle += ns;
		if (s->switched && ends_in)
			r->cpus[s->cpu].switches++;
		return 0;
	}
	if (s->end < r->w0 || s->start > r->w1)
		return 0;
	rt->seen = true;
	rt->ns[s->state] += ns;
	r->thread_ns += ns;
	switch (s->state) {
	case F2T_TS_UNKNOWN:
		r->unknown_why[s->why] += ns;
		return 0;
	case F2T_TS_RUNNING:
		return ran(r, s, rt, ns, starts_in, ends_in);
	case F2T_TS_WOKEN:
	case F2T_TS_PREEMPTED:
		return s->switched && ends_in ? waited(r, s, rt) : 0;
	default:
		return 0;
	}
}

static int tap_event(void *ctx, const struct f2t_event *ev)
{
	struct f2t_report *r = ctx;
	int ret = f2t_tstates_event(r->ts, ev);

	/* A process the recording's processes start is theirs (the tracker has its tgid). */
	if (!ret && ev->kind == F2T_EV_FORK && r->focus.n &&
	    f2t_report_focused(r, f2t_report_pid_of(r, ev->fork.parent_pid)) &&
	    !f2t_idmap_get(&r->focus, f2t_report_pid_of(r, ev->fork.child_pid), NULL))
		ret = -ENOMEM;

	if (ret)
		f2t_err("report: %s", strerror(-ret));
	return ret;
}

static int flush_thread(void *ctx, int32_t tid, void *user)
{
	return flush_run(ctx, tid, user);
}

static int tap_end(void *ctx, const struct f2t_stats *st)
{
	struct f2t_report *r = ctx;
	int ret = f2t_tstates_end(r->ts);

	if (!ret)
		ret = f2t_tstates_each(r->ts, flush_thread, r);
	if (ret)
		f2t_err("report: %s", strerror(-ret));
	r->st = *st;
	r->ended = !ret;
	return ret;
}

struct f2t_tap f2t_report_tap(struct f2t_report *r)
{
	return (struct f2t_tap){ .event = tap_event, .end = tap_end, .ctx = r };
}

void f2t_report_span(const struct f2t_report *r, uint64_t *from, uint64_t *to)
{
	uint64_t first = f2t_tstates_first(r->ts), last = f2t_tstates_last(r->ts);

	*from = r->window_set && r->w0 > first ? r->w0 : first;
	*to = r->window_set && r->w1 < last ? r->w1 : last;
	if (*to < *from)
		*to = *from;
}

size_t f2t_report_cpu_top(const struct f2t_report *r, uint32_t cpu,
			  struct f2t_tstate_holder *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->cputask.n; i++) {
		int64_t key;
		const uint64_t *ns = f2t_idmap_at(&r->cputask, i, &key);
		size_t j;

		if ((uint64_t)key >> 32 != cpu || (n == max && *ns <= out[n - 1].ns))
			continue;
		j = n < max ? n++ : n - 1;
		for (; j > 0 && out[j - 1].ns < *ns; j--)
			out[j] = out[j - 1];
		out[j] = (struct f2t_tstate_holder){ (int32_t)(uint32_t)key, *ns };
	}
	return n;
}

const char *f2t_report_comm(const struct f2t_report *r, int32_t tid)
{
	const struct f2t_task *t;

	if (tid == 0)
		return "<idle>";
	t = tid > 0 ? f2t_tasks_find(r->rec->tasks, tid) : NULL;
	return t ? t->comm : tid < 0 ? "<unknown>" : "<...>";
}

int32_t f2t_report_pid_of(const struct f2t_report *r, int32_t tid)
{
	const struct f2t_task *t = tid > 0 ? f2t_tasks_find(r->rec->tasks, tid) : NULL;

	return t && t->tgid > 0 ? t->tgid : tid;
}

bool f2t_report_focused(const struct f2t_report *r, int32_t pid)
{
	return pid > 0 && f2t_idmap_find(&r->focus, pid);
}

int f2t_report_write(struct f2t_report *r, struct f2t_out *out)
{
	struct f2t_table t;
	int ret = f2t_report_table(r, &t);

	if (ret)
		return ret;
	switch (r->o.format) {
	case F2T_REPORT_JSON:
		f2t_report_write_json(r, &t, out);
		break;
	case F2T_REPORT_CSV:
		f2t_report_write_csv(r, &t, out);
		break;
	case F2T_REPORT_NDJSON:
		f2t_report_write_ndjson(r, &t, out);
		break;
	default:
		f2t_report_write_text(r, &t, out);
		break;
	}
	f2t_report_table_free(&t);
	return 0;
}
