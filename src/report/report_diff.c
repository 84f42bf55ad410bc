// SPDX-License-Identifier: MIT
/*
 * Two recordings compared (report --diff A B): each read in its own pass
 * with the scheduling report and the off-CPU report as taps, then their
 * threads and processes matched by name, not by pid (pids differ between
 * runs): threads of one name in processes of one name are summed, their
 * wakeup latency histograms merged, so a pool of workers compares as one.
 * CPUs are matched by number.  Every figure is written for A, for B and
 * as the change B - A, with the change in percent of A; the off-CPU
 * stacks, folded, as the two columns of difffolded.pl ("STACK A B", in
 * microseconds), which flamegraph.pl draws as a differential graph.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_fmt.h"
#include "model/identity.h"
#include "report/offcpu.h"
#include "report/report-local.h"
#include "util/intern.h"
#include "util/log.h"
#include "util/samefile.h"
#include "util/sort.h"
#include "util/vec.h"

/* The figures compared, for threads and processes (T), CPUs (C) or both. */
enum dm {
	M_THREADS, M_RUNNING, M_RUNNABLE, M_SLEEPING, M_BLOCKED, M_BUSY, M_IDLE, M_SWITCHES,
	M_MIGRATIONS, M_WAKEUPS, M_P50, M_P99, M_MAX,
	M_COUNT
};

#define T 1
#define C 2

static const struct {
	const char *name;
	unsigned int of;	/* T, C or both */
	bool ns;		/* a time */
	bool lat;		/* a latency: none without wakeups */
} metrics[M_COUNT] = {
	[M_THREADS] = { .name = "threads", .of = T },
	[M_RUNNING] = { .name = "running_ns", .of = T, .ns = true },
	[M_RUNNABLE] = { .name = "runnable_ns", .of = T, .ns = true },
	[M_SLEEPING] = { .name = "sleeping_ns", .of = T, .ns = true },
	[M_BLOCKED] = { .name = "blocked_ns", .of = T, .ns = true },
	[M_BUSY] = { .name = "busy_ns", .of = C, .ns = true },
	[M_IDLE] = { .name = "idle_ns", .of = C, .ns = true },
	[M_SWITCHES] = { .name = "switches", .of = T | C },
	[M_MIGRATIONS] = { .name = "migrations", .of = T },
	[M_WAKEUPS] = { .name = "wakeups", .of = T | C },
	[M_P50] = { .name = "wakeup_p50_ns", .of = T | C, .ns = true, .lat = true },
	[M_P99] = { .name = "wakeup_p99_ns", .of = T | C, .ns = true, .lat = true },
	[M_MAX] = { .name = "wakeup_max_ns", .of = T | C, .ns = true, .lat = true },
};

enum dkind { K_PROCESS, K_THREAD, K_CPU };

/* A process name, a thread name in a process name, or a CPU, in both recordings. */
struct dent {
	enum dkind kind;
	char *process, *thread;
	uint32_t cpu;
	bool has[2];		/* seen in A, in B */
	uint64_t v[2][M_COUNT];
	struct f2t_lathist h[2];
	size_t parent;		/* a thread's process */
};

/* An off-CPU stack, folded, with its blocked time in A and B. */
struct dstack {
	char *stack;
	uint64_t ns[2];
};

struct diff {
	struct f2t_report_input in[2];
	struct f2t_offcpu_report *off[2];
	struct f2t_intern keys;		/* entity key -> index in e */
	struct dent *e;
	size_t n, cap;
	size_t *procs, nprocs;		/* processes, in output order */
	size_t *cpus, ncpus;
	struct dstack *stacks;
	size_t nstacks, stacks_cap;
	const struct f2t_report_opts *o;
	bool folded;
	char key[2 * F2T_COMM_LEN + 4];
};

/* The entity of @kind and names, added if new.  Return: its index, or -ENOMEM. */
static int64_t entity(struct diff *d, enum dkind kind, const char *process, const char *thread,
		      uint32_t cpu)
{
	int len;
	bool fresh;
	int64_t id;
	struct dent *e;

	if (kind == K_CPU)
		len = snprintf(d->key, sizeof(d->key), "C%u", cpu);
	else
		len = snprintf(d->key, sizeof(d->key), "%c%s%c%s", kind == K_THREAD ? 'T' : 'P',
			       process, 0, thread ? thread : "");
	if (len >= (int)sizeof(d->key))
		len = (int)sizeof(d->key) - 1;
	if (f2t_vec_reserve(&d->e, &d->cap, d->n + 1, 64))
		return -ENOMEM;
	id = f2t_intern(&d->keys, d->key, (size_t)len, &fresh);
	if (id < 0 || !fresh)
		return id;
	e = &d->e[d->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->cpu = cpu;
	e->process = kind != K_CPU ? strdup(process) : NULL;
	e->thread = kind == K_THREAD ? strdup(thread) : NULL;
	if ((kind != K_CPU && !e->process) || (kind == K_THREAD && !e->thread))
		return -ENOMEM;
	return id;
}

static void add_row(struct dent *e, int s, const struct f2t_row *row)
{
	const uint64_t *v = row->v;

	e->has[s] = true;
	e->v[s][M_THREADS]++;
	e->v[s][M_RUNNING] += v[C_RUNNING];
	e->v[s][M_RUNNABLE] += v[C_WOKEN] + v[C_PREEMPTED];
	e->v[s][M_SLEEPING] += v[C_SLEEPING];
	e->v[s][M_BLOCKED] += v[C_BLOCKED];
	e->v[s][M_SWITCHES] += v[C_VOL] + v[C_INVOL];
	e->v[s][M_MIGRATIONS] += v[C_MIGRATIONS];
	if (row->hist)
		f2t_lathist_merge(&e->h[s], row->hist);
}

/* Side @s's threads (as the report's filters select them) and CPUs. */
static int collect(struct diff *d, int s)
{
	const struct f2t_report *r = d->in[s].r;
	uint32_t ncpus = r->ncpus > r->rec->info.ncpus ? r->ncpus : r->rec->info.ncpus;
	struct f2t_table t;
	int ret = f2t_report_table(r, &t);

	for (size_t i = 0; !ret && i < t.ngroups; i++) {
		const struct f2t_group *g = &t.groups[i];

		for (size_t j = 0; !ret && j < g->n; j++) {
			int64_t p = entity(d, K_PROCESS, g->proc.comm, NULL, 0), th;

			th = p < 0 ? p : entity(d, K_THREAD, g->proc.comm, g->threads[j]->comm, 0);
			if (th < 0) {
				ret = (int)th;
				break;
			}
			add_row(&d->e[p], s, g->threads[j]);
			add_row(&d->e[th], s, g->threads[j]);
			d->e[th].parent = (size_t)p;
		}
	}
	f2t_report_table_free(&t);
	for (uint32_t cpu = 0; !ret && cpu < ncpus && cpu < F2T_MAX_CPUS; cpu++) {
		const struct f2t_rcpu *c = &r->cpus[cpu];
		int64_t id = entity(d, K_CPU, NULL, NULL, cpu);
		struct dent *e;

		if (id < 0)
			return (int)id;
		e = &d->e[id];
		e->has[s] = true;
		e->v[s][M_BUSY] = c->busy;
		e->v[s][M_IDLE] = c->idle;
		e->v[s][M_SWITCHES] = c->switches;
		if (c->hist)
			f2t_lathist_merge(&e->h[s], c->hist);
	}
	return ret;
}

/* The latencies, from the merged histograms. */
static void settle(struct dent *e)
{
	for (int s = 0; s < 2; s++) {
		e->v[s][M_WAKEUPS] = e->h[s].count;
		e->v[s][M_P50] = f2t_lathist_percentile(&e->h[s], 50);
		e->v[s][M_P99] = f2t_lathist_percentile(&e->h[s], 99);
		e->v[s][M_MAX] = e->h[s].max;
	}
}

/* Is @m known on side @s of @e? */
static bool known(const struct dent *e, int s, enum dm m)
{
	return e->has[s] && (!metrics[m].lat || e->v[s][M_WAKEUPS]);
}

static const struct dent *sort_e;

static uint64_t weight(const struct dent *e)
{
	return e->v[0][M_RUNNING] > e->v[1][M_RUNNING] ? e->v[0][M_RUNNING] : e->v[1][M_RUNNING];
}

/* Processes and threads by their larger running time, then by name; CPUs by number. */
static int by_order(const void *a, const void *b)
{
	const struct dent *x = &sort_e[*(const size_t *)a], *y = &sort_e[*(const size_t *)b];

	if (x->kind == K_CPU)
		return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
	if (weight(x) != weight(y))
		return weight(x) > weight(y) ? -1 : 1;
	return strcmp(x->thread ? x->thread : x->process, y->thread ? y->thread : y->process);
}

static size_t top(const struct diff *d, size_t n)
{
	return d->o->top && d->o->top < n ? d->o->top : n;
}

/* The entities of @kind (threads: of process @parent), in output order, into a new array. */
static size_t *ordered(const struct diff *d, enum dkind kind, size_t parent, size_t *n)
{
	size_t *idx = malloc((d->n + 1) * sizeof(*idx));

	*n = 0;
	if (!idx)
		return NULL;
	for (size_t i = 0; i < d->n; i++)
		if (d->e[i].kind == kind && (kind != K_THREAD || d->e[i].parent == parent))
			idx[(*n)++] = i;
	sort_e = d->e;
	f2t_sort(idx, *n, sizeof(*idx), by_order);
	return idx;
}

static int keep_stack(struct diff *d, int s, const char *stack, uint64_t ns)
{
	if (f2t_vec_reserve(&d->stacks, &d->stacks_cap, d->nstacks + 1, 256))
		return -ENOMEM;
	d->stacks[d->nstacks] = (struct dstack){ .stack = strdup(stack) };
	if (!d->stacks[d->nstacks].stack)
		return -ENOMEM;
	d->stacks[d->nstacks++].ns[s] = ns;
	return 0;
}

static int stack_a(void *d, const char *stack, uint64_t ns)
{
	return keep_stack(d, 0, stack, ns);
}

static int stack_b(void *d, const char *stack, uint64_t ns)
{
	return keep_stack(d, 1, stack, ns);
}

static int by_stack(const void *a, const void *b)
{
	const struct dstack *x = a, *y = b;

	return strcmp(x->stack, y->stack);
}

/* Both recordings' folded stacks as one list by stack, the two times side by side. */
static int stacks(struct diff *d)
{
	size_t k = 0;
	int ret;

	ret = f2t_offcpu_report_folded_each(d->off[0], d->in[0].in->rec.tasks, stack_a, d);
	if (!ret)
		ret = f2t_offcpu_report_folded_each(d->off[1], d->in[1].in->rec.tasks, stack_b, d);
	if (ret)
		return ret;
	f2t_sort(d->stacks, d->nstacks, sizeof(*d->stacks), by_stack);
	for (size_t i = 0; i < d->nstacks; i++) {
		if (k && !strcmp(d->stacks[k - 1].stack, d->stacks[i].stack)) {
			d->stacks[k - 1].ns[0] += d->stacks[i].ns[0];
			d->stacks[k - 1].ns[1] += d->stacks[i].ns[1];
			free(d->stacks[i].stack);
			continue;
		}
		d->stacks[k++] = d->stacks[i];
	}
	d->nstacks = k;
	return 0;
}

/* -------- writing -------- */

static void str(struct f2t_out *o, const char *s)
{
	f2t_json_put_string(o, s ? s : "", s ? strlen(s) : 0);
}

/* "12.345 ms" or a count, for the text. */
static void text_value(struct f2t_out *o, const struct dent *e, int s, enum dm m)
{
	if (!known(e, s, m))
		f2t_out_printf(o, " %15s", "-");
	else if (metrics[m].ns)
		f2t_out_printf(o, " %12.3f ms", (double)e->v[s][m] / 1e6);
	else
		f2t_out_printf(o, " %15" PRIu64, e->v[s][m]);
}

static void text_metric(struct f2t_out *o, const struct dent *e, enum dm m, const char *indent)
{
	const char *name = metrics[m].name;
	/* The text gives times in ms: "running", not "running_ns". */
	int len = (int)strlen(name) - (metrics[m].ns ? 3 : 0);

	f2t_out_printf(o, "%s%.*s%*s", indent, len, name, (int)(24 - strlen(indent)) - len, "");
	text_value(o, e, 0, m);
	text_value(o, e, 1, m);
	if (known(e, 0, m) && known(e, 1, m)) {
		double ch = (double)e->v[1][m] - (double)e->v[0][m];

		if (metrics[m].ns)
			f2t_out_printf(o, " %+12.3f ms", ch / 1e6);
		else
			f2t_out_printf(o, " %+15.0f", ch);
		if (e->v[0][m])
			f2t_out_printf(o, " %+8.1f%%", 100.0 * ch / (double)e->v[0][m]);
	}
	f2t_out_putc(o, '\n');
}

static void text_entity(struct f2t_out *o, const struct dent *e, unsigned int of,
			const char *indent)
{
	for (int m = 0; m < M_COUNT; m++)
		if (metrics[m].of & of)
			text_metric(o, e, m, indent);
}

static int by_change(const void *a, const void *b)
{
	const struct dstack *x = *(const struct dstack *const *)a, *y = *(const struct dstack *const *)b;
	uint64_t cx = x->ns[1] > x->ns[0] ? x->ns[1] - x->ns[0] : x->ns[0] - x->ns[1];
	uint64_t cy = y->ns[1] > y->ns[0] ? y->ns[1] - y->ns[0] : y->ns[0] - y->ns[1];

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->stack, y->stack);
}

/* The off-CPU stacks whose blocked time changed most. */
static int text_stacks(const struct diff *d, struct f2t_out *o)
{
	const struct dstack **by = malloc((d->nstacks + 1) * sizeof(*by));
	size_t n = d->o->top ? d->o->top : 10;

	if (!by)
		return -ENOMEM;
	for (size_t i = 0; i < d->nstacks; i++)
		by[i] = &d->stacks[i];
	f2t_sort(by, d->nstacks, sizeof(*by), by_change);
	f2t_out_printf(o, "\nOff-CPU stacks whose blocked time changed most (of %zu; --folded writes "
		       "them all as 'STACK A_US B_US' for difffolded.pl and flamegraph.pl)\n",
		       d->nstacks);
	for (size_t i = 0; i < d->nstacks && i < n; i++)
		f2t_out_printf(o, "  %+12.3f ms  (A %.3f ms, B %.3f ms)  %s\n",
			       ((double)by[i]->ns[1] - (double)by[i]->ns[0]) / 1e6,
			       (double)by[i]->ns[0] / 1e6, (double)by[i]->ns[1] / 1e6, by[i]->stack);
	free(by);
	return 0;
}

static int write_text(struct diff *d, struct f2t_out *o)
{
	static const char head[] = "%-24s %15s %15s %15s %9s\n";

	for (int s = 0; s < 2; s++) {
		f2t_out_printf(o, "%s: %s\n", s ? "B" : "A", d->in[s].in->rec.path);
		f2t_report_identity_text(&d->in[s].in->rec.info, "   ", o);
	}
	f2t_out_puts(o, "\nThreads and processes matched by name (threads of one name in processes "
		     "of one name summed); change = B - A\n");
	f2t_out_printf(o, head, "", "A", "B", "change", "");
	for (size_t i = 0; i < top(d, d->nprocs); i++) {
		const struct dent *p = &d->e[d->procs[i]];
		size_t nt, *th = ordered(d, K_THREAD, d->procs[i], &nt);

		if (!th)
			return -ENOMEM;
		f2t_out_puts(o, "process ");
		f2t_out_puts(o, p->process);
		f2t_out_putc(o, '\n');
		text_entity(o, p, T, "  ");
		for (size_t j = 0; j < top(d, nt); j++) {
			f2t_out_printf(o, "  thread %s\n", d->e[th[j]].thread);
			text_entity(o, &d->e[th[j]], T, "    ");
		}
		free(th);
	}
	f2t_out_puts(o, "\nCPUs\n");
	for (size_t i = 0; i < d->ncpus; i++) {
		f2t_out_printf(o, "cpu %u\n", d->e[d->cpus[i]].cpu);
		text_entity(o, &d->e[d->cpus[i]], C, "  ");
	}
	return d->nstacks ? text_stacks(d, o) : 0;
}

static void json_metrics(struct f2t_out *o, const struct dent *e, unsigned int of)
{
	bool first = true;

	f2t_out_puts(o, "\"metrics\":{");
	for (int m = 0; m < M_COUNT; m++) {
		if (!(metrics[m].of & of))
			continue;
		f2t_out_printf(o, "%s\"%s\":{", first ? "" : ",", metrics[m].name);
		first = false;
		for (int s = 0; s < 2; s++) {
			f2t_out_printf(o, "%s\"%s\":", s ? "," : "", s ? "b" : "a");
			if (known(e, s, m))
				f2t_json_put_u64(o, e->v[s][m]);
			else
				f2t_out_puts(o, "null");
		}
		f2t_out_puts(o, ",\"change\":");
		if (known(e, 0, m) && known(e, 1, m))
			f2t_json_put_i64(o, (int64_t)(e->v[1][m] - e->v[0][m]));
		else
			f2t_out_puts(o, "null");
		f2t_out_puts(o, ",\"change_pct\":");
		if (known(e, 0, m) && known(e, 1, m) && e->v[0][m])
			f2t_json_put_double(o, 100.0 * ((double)e->v[1][m] - (double)e->v[0][m]) /
					    (double)e->v[0][m]);
		else
			f2t_out_puts(o, "null");
		f2t_out_putc(o, '}');
	}
	f2t_out_putc(o, '}');
}

static int write_json(struct diff *d, struct f2t_out *o)
{
	f2t_out_putc(o, '{');
	for (int s = 0; s < 2; s++) {
		struct f2t_identity id;

		f2t_identity_of(&d->in[s].in->rec.info, &id);
		f2t_out_printf(o, "%s\"%s\":{\"input\":", s ? ",\n" : "", s ? "b" : "a");
		str(o, d->in[s].in->rec.path);
		f2t_json_put_identity(o, &id, false);
		f2t_out_putc(o, '}');
	}
	f2t_out_puts(o, ",\n\"processes\":[");
	for (size_t i = 0; i < top(d, d->nprocs); i++) {
		const struct dent *p = &d->e[d->procs[i]];
		size_t nt, *th = ordered(d, K_THREAD, d->procs[i], &nt);

		if (!th)
			return -ENOMEM;
		f2t_out_puts(o, i ? ",\n{\"process\":" : "\n{\"process\":");
		str(o, p->process);
		f2t_out_putc(o, ',');
		json_metrics(o, p, T);
		f2t_out_puts(o, ",\"threads\":[");
		for (size_t j = 0; j < top(d, nt); j++) {
			f2t_out_puts(o, j ? ",\n {\"thread\":" : "\n {\"thread\":");
			str(o, d->e[th[j]].thread);
			f2t_out_putc(o, ',');
			json_metrics(o, &d->e[th[j]], T);
			f2t_out_putc(o, '}');
		}
		f2t_out_puts(o, "]}");
		free(th);
	}
	f2t_out_puts(o, "],\n\"cpus\":[");
	for (size_t i = 0; i < d->ncpus; i++) {
		f2t_out_printf(o, "%s{\"cpu\":%u,", i ? ",\n" : "\n", d->e[d->cpus[i]].cpu);
		json_metrics(o, &d->e[d->cpus[i]], C);
		f2t_out_putc(o, '}');
	}
	f2t_out_puts(o, "],\n\"offcpu_folded\":[");
	for (size_t i = 0; i < d->nstacks; i++) {
		f2t_out_puts(o, i ? ",\n{\"stack\":" : "\n{\"stack\":");
		str(o, d->stacks[i].stack);
		f2t_out_printf(o, ",\"a_ns\":%" PRIu64 ",\"b_ns\":%" PRIu64 "}", d->stacks[i].ns[0],
			       d->stacks[i].ns[1]);
	}
	f2t_out_puts(o, "]}\n");
	return 0;
}

static void csv_entity(struct f2t_out *o, const struct dent *e, unsigned int of)
{
	static const char *const kinds[] = { "process", "thread", "cpu" };

	for (int m = 0; m < M_COUNT; m++) {
		if (!(metrics[m].of & of))
			continue;
		f2t_out_printf(o, "%s,", kinds[e->kind]);
		f2t_report_csv_field(o, e->process ? e->process : "");
		f2t_out_putc(o, ',');
		f2t_report_csv_field(o, e->thread ? e->thread : "");
		if (e->kind == K_CPU)
			f2t_out_printf(o, ",%u", e->cpu);
		else
			f2t_out_putc(o, ',');
		f2t_out_printf(o, ",,%s", metrics[m].name);
		for (int s = 0; s < 2; s++) {
			f2t_out_putc(o, ',');
			if (known(e, s, m))
				f2t_json_put_u64(o, e->v[s][m]);
		}
		f2t_out_putc(o, ',');
		if (known(e, 0, m) && known(e, 1, m))
			f2t_json_put_i64(o, (int64_t)(e->v[1][m] - e->v[0][m]));
		f2t_out_putc(o, ',');
		if (known(e, 0, m) && known(e, 1, m) && e->v[0][m])
			f2t_json_put_double(o, 100.0 * ((double)e->v[1][m] - (double)e->v[0][m]) /
					    (double)e->v[0][m]);
		f2t_out_putc(o, '\n');
	}
}

static int write_csv(struct diff *d, struct f2t_out *o)
{
	f2t_out_puts(o, "kind,process,thread,cpu,stack,metric,a,b,change,change_pct\n");
	for (size_t i = 0; i < top(d, d->nprocs); i++) {
		size_t nt, *th = ordered(d, K_THREAD, d->procs[i], &nt);

		if (!th)
			return -ENOMEM;
		csv_entity(o, &d->e[d->procs[i]], T);
		for (size_t j = 0; j < top(d, nt); j++)
			csv_entity(o, &d->e[th[j]], T);
		free(th);
	}
	for (size_t i = 0; i < d->ncpus; i++)
		csv_entity(o, &d->e[d->cpus[i]], C);
	for (size_t i = 0; i < d->nstacks; i++) {
		const struct dstack *st = &d->stacks[i];

		f2t_out_puts(o, "offcpu_stack,,,,");
		f2t_report_csv_field(o, st->stack);
		f2t_out_printf(o, ",blocked_ns,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",", st->ns[0],
			       st->ns[1], (int64_t)(st->ns[1] - st->ns[0]));
		if (st->ns[0])
			f2t_json_put_double(o, 100.0 * ((double)st->ns[1] - (double)st->ns[0]) /
					    (double)st->ns[0]);
		f2t_out_putc(o, '\n');
	}
	return 0;
}

/* difffolded.pl's form: STACK A B, microseconds. */
static int write_folded(struct diff *d, struct f2t_out *o)
{
	for (size_t i = 0; i < d->nstacks; i++)
		f2t_out_printf(o, "%s %" PRIu64 " %" PRIu64 "\n", d->stacks[i].stack,
			       (d->stacks[i].ns[0] + 500) / 1000, (d->stacks[i].ns[1] + 500) / 1000);
	return 0;
}

/* -------- the run -------- */

static int off_event(void *ctx, const struct f2t_event *ev)
{
	int ret = f2t_offcpu_report_add(ctx, ev);

	if (ret)
		f2t_err("report: out of memory");
	return ret;
}

static int off_end(void *ctx, const struct f2t_stats *st)
{
	return 0;
}

static void diff_free(struct diff *d)
{
	for (int s = 0; s < 2; s++) {
		f2t_report_input_close(&d->in[s]);
		f2t_offcpu_report_free(d->off[s]);
	}
	for (size_t i = 0; i < d->n; i++) {
		free(d->e[i].process);
		free(d->e[i].thread);
	}
	for (size_t i = 0; i < d->nstacks; i++)
		free(d->stacks[i].stack);
	free(d->stacks);
	free(d->e);
	free(d->procs);
	free(d->cpus);
	f2t_intern_fini(&d->keys);
}

static int write_diff(void *ctx, struct f2t_out *out)
{
	struct diff *d = ctx;

	switch (d->o->format) {
	case F2T_REPORT_JSON:
		return write_json(d, out);
	case F2T_REPORT_CSV:
		return write_csv(d, out);
	default:
		return d->folded ? write_folded(d, out) : write_text(d, out);
	}
}

int f2t_report_diff_run(const char *a, const char *b, const struct f2t_report_opts *o,
			bool folded, const struct f2t_convert_opts *conv, const char *out_path)
{
	const char *paths[2] = { a, b };
	struct diff d = { .o = o, .folded = folded };
	unsigned long said = f2t_errors();
	int ret = 0;

	for (int s = 0; s < 2 && !ret; s++) {
		struct f2t_tap off;

		if (out_path && (ret = f2t_refuse_own_input(paths[s], out_path)))
			break;
		d.off[s] = f2t_offcpu_report_new();
		if (!d.off[s]) {
			f2t_err("out of memory");
			ret = -ENOMEM;
			break;
		}
		off = (struct f2t_tap){ .event = off_event, .end = off_end, .ctx = d.off[s] };
		ret = f2t_report_input_run(paths[s], o, conv, &off, &d.in[s]);
	}
	if (!ret)
		ret = collect(&d, 0) ?: collect(&d, 1) ?: stacks(&d);
	if (!ret) {
		for (size_t i = 0; i < d.n; i++)
			settle(&d.e[i]);
		d.procs = ordered(&d, K_PROCESS, 0, &d.nprocs);
		d.cpus = ordered(&d, K_CPU, 0, &d.ncpus);
		if (!d.procs || !d.cpus)
			ret = -ENOMEM;
	}
	if (ret && f2t_errors() == said)
		f2t_err("report: %s", strerror(-ret));
	if (!ret && folded && !d.nstacks) {
		f2t_err("--folded: no off-CPU episodes in %s or %s (record them with --off-cpu)", a,
			b);
		ret = -ENODATA;
	}
	if (!ret)
		ret = f2t_report_write_to(out_path, write_diff, &d);
	diff_free(&d);
	return ret;
}
