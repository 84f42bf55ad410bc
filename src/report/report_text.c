// SPDX-License-Identifier: MIT
/*
 * The report as text for a terminal: what the trace covers and how well,
 * the per-thread tables under their processes, the CPUs, the latency
 * distribution as runqlat draws it, the slow waits as runqslower lists
 * them.  ftrace2trace-report(1) shows an example.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report-local.h"

#define DUR_LEN 16

/* "812ns", "12.3us", "4.56ms", "1.234s". */
static const char *dur(char *buf, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, DUR_LEN, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, DUR_LEN, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, DUR_LEN, "%.2fms", ns / 1e6);
	else
		snprintf(buf, DUR_LEN, "%.3fs", ns / 1e9);
	return buf;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "1.23% (4.56ms)": the unknown time for reason @why. */
static void share(const struct f2t_report *r, struct f2t_out *o, enum f2t_tstate_why why)
{
	char b[DUR_LEN];

	f2t_out_printf(o, "%.2f%% (%s)", pct(r->unknown_why[why], r->thread_ns),
		       dur(b, r->unknown_why[why]));
}

static void header(const struct f2t_report *r, struct f2t_out *o)
{
	char b[2][DUR_LEN];
	const struct f2t_trace_info *info = &r->rec->info;
	const struct f2t_stats *st = &r->st;
	uint64_t first = f2t_tstates_first(r->ts), from, to, unknown = 0;

	f2t_report_span(r, &from, &to);
	f2t_out_printf(o, "ftrace2trace report: %s\n", r->o.title ? r->o.title :
		       r->rec->path ? r->rec->path : "");
	f2t_report_identity_text(info, "", o);
	f2t_out_printf(o, "trace: %.6f s of events from %.6f s (trace clock %s)\n",
		       (f2t_tstates_last(r->ts) - first) / 1e9, first / 1e9,
		       info->clock ? info->clock : "?");
	if (r->o.from_ns || r->o.to_ns)
		f2t_out_printf(o, "window: %.6f s to %.6f s after the first event\n",
			       (from - first) / 1e9, (to - first) / 1e9);
	f2t_out_printf(o, "events: %" PRIu64 "; lost: %" PRIu64 " (%" PRIu64 " marked where they "
		       "were lost, in %" PRIu64 " places; the kernel counted ring buffer overrun %"
		       PRIu64 ", dropped %" PRIu64 "); scheduling gaps: %" PRIu64 "\n",
		       st->total_events, st->lost_events, st->lost_marked, st->lost_pages,
		       st->kernel_overrun, st->kernel_dropped, f2t_tstates_counts(r->ts)->gaps);
	for (int w = 0; w < F2T_TSW_COUNT; w++)
		unknown += r->unknown_why[w];
	f2t_out_printf(o, "unknown: %.2f%% of the threads' observed time (%s of %s): before their "
		       "first event ", pct(unknown, r->thread_ns), dur(b[0], unknown),
		       dur(b[1], r->thread_ns));
	share(r, o, F2T_TSW_BEFORE);
	f2t_out_printf(o, ", around %" PRIu64 " unrecorded switches ", f2t_tstates_counts(r->ts)->gaps);
	share(r, o, F2T_TSW_GAP);
	f2t_out_printf(o, ", after %" PRIu64 " lost events ", st->lost_events);
	share(r, o, F2T_TSW_LOST);
	f2t_out_puts(o, ", wakeup not recorded ");
	share(r, o, F2T_TSW_UNSEEN);
	f2t_out_puts(o, "\n\n");
}

/* PID, TID and COMM of a row: a process's roll-up, or one of its threads. */
static void who(struct f2t_out *o, const struct f2t_row *row, bool alone)
{
	char comm[40];

	if (row->tid < 0) {
		snprintf(comm, sizeof(comm), "%s [%u thread%s]", row->comm, row->nthreads,
			 row->nthreads == 1 ? "" : "s");
		f2t_out_printf(o, "%7d %7s  %-22s", row->pid, "-", comm);
	} else if (alone) {
		f2t_out_printf(o, "%7d %7d  %-22s", row->pid, row->tid, row->comm);
	} else {
		snprintf(comm, sizeof(comm), "  %s", row->comm);
		f2t_out_printf(o, "%7s %7d  %-22s", "", row->tid, comm);
	}
}

static void time_cell(struct f2t_out *o, uint64_t ns, uint64_t life)
{
	char b[DUR_LEN];

	f2t_out_printf(o, "  %9s %3.0f%%", dur(b, ns), pct(ns, life));
}

static void time_row(const struct f2t_report *r, struct f2t_out *o, const struct f2t_row *row,
		     bool alone)
{
	const uint64_t *v = row->v;
	char b[DUR_LEN];

	who(o, row, alone);
	f2t_out_printf(o, " %9s", dur(b, v[C_LIFE]));
	time_cell(o, v[C_RUNNING], v[C_LIFE]);
	time_cell(o, v[C_WOKEN], v[C_LIFE]);
	time_cell(o, v[C_PREEMPTED], v[C_LIFE]);
	time_cell(o, v[C_SLEEPING], v[C_LIFE]);
	time_cell(o, v[C_BLOCKED], v[C_LIFE]);
	time_cell(o, v[C_IDLE] + v[C_STOPPED], v[C_LIFE]);
	time_cell(o, v[C_UNKNOWN], v[C_LIFE]);
	f2t_out_putc(o, '\n');
}

static void holders(const struct f2t_report *r, struct f2t_out *o,
		    const struct f2t_tstate_holder *h, size_t n, bool complete)
{
	char b[DUR_LEN];

	for (size_t i = 0; i < n; i++) {
		f2t_out_printf(o, "%s%s", i ? ", " : "", f2t_report_comm(r, h[i].tid));
		if (h[i].tid > 0)
			f2t_out_printf(o, "[%d]", h[i].tid);
		f2t_out_printf(o, " %s", dur(b, h[i].ns));
	}
	if (!complete)
		f2t_out_puts(o, n ? ", ..." : "not known");
}

static void write_waker(const struct f2t_report *r, struct f2t_out *o, const struct f2t_wait *w)
{
	if (w->preempted)
		f2t_out_puts(o, "preempted");
	else if (w->waker < 0)
		f2t_out_puts(o, "woken by ?");
	else
		f2t_out_printf(o, "woken by %s[%d]", f2t_report_comm(r, w->waker), w->waker);
}

static void wait_row(const struct f2t_report *r, struct f2t_out *o, const struct f2t_row *row,
		     bool alone)
{
	const uint64_t *v = row->v;
	char b[4][DUR_LEN];

	who(o, row, alone);
	f2t_out_printf(o, " %7" PRIu64 " %7" PRIu64 " %6" PRIu64 " %8" PRIu64, v[C_VOL], v[C_INVOL],
		       v[C_MIGRATIONS], v[C_WAKEUPS]);
	if (!v[C_WAKEUPS]) {
		f2t_out_printf(o, " %9s %9s %9s %9s\n", "-", "-", "-", "-");
		return;
	}
	f2t_out_printf(o, " %9s %9s %9s %9s", dur(b[0], v[C_P50]), dur(b[1], v[C_P90]),
		       dur(b[2], v[C_P99]), dur(b[3], v[C_MAX]));
	f2t_out_printf(o, "  at %.6f cpu %" PRIu64 " ", v[C_MAX_AT] / 1e9, v[C_MAX_CPU]);
	if (row->wmax) {
		write_waker(r, o, row->wmax);
		f2t_out_puts(o, "; cpu held by ");
		holders(r, o, row->wmax->held, row->wmax->nheld, row->wmax->complete);
	}
	f2t_out_putc(o, '\n');
}

typedef void (*row_fn)(const struct f2t_report *r, struct f2t_out *o, const struct f2t_row *row,
		       bool alone);

/* Every selected group --top lets through, each with its threads. */
static void groups(const struct f2t_report *r, const struct f2t_table *t, struct f2t_out *o,
		   row_fn fn)
{
	size_t ng = f2t_report_top(r, t->ngroups);

	for (size_t i = 0; i < ng; i++) {
		const struct f2t_group *g = &t->groups[i];
		size_t n = f2t_report_top(r, g->n);

		if (g->n == 1 && g->threads[0]->tid == g->proc.pid) {
			fn(r, o, g->threads[0], true);
			continue;
		}
		fn(r, o, &g->proc, false);
		for (size_t j = 0; j < n; j++)
			fn(r, o, g->threads[j], false);
		if (n < g->n)
			f2t_out_printf(o, "%16s  ... %zu more threads\n", "", g->n - n);
	}
	if (ng < t->ngroups)
		f2t_out_printf(o, "... %zu more processes (--top)\n", t->ngroups - ng);
}

static void tables(const struct f2t_report *r, const struct f2t_table *t, struct f2t_out *o)
{
	f2t_out_printf(o, "Where each thread's time went (%% of its observed life), by process:\n");
	f2t_out_printf(o, "%7s %7s  %-22s %9s  %14s  %14s  %14s  %14s  %14s  %14s  %14s\n", "PID",
		       "TID", "COMM", "LIFE", "RUNNING", "RUNNABLE:WOKEN", "RUNNABLE:PREEMPT",
		       "SLEEPING(S)", "BLOCKED(D)", "OTHER(I,T,P)", "UNKNOWN");
	groups(r, t, o, time_row);
	f2t_out_printf(o, "\nContext switches, migrations, wakeup latency (waking -> running):\n");
	f2t_out_printf(o, "%7s %7s  %-22s %7s %7s %6s %8s %9s %9s %9s %9s  %s\n", "PID", "TID",
		       "COMM", "SW:VOL", "SW:INV", "MIGR", "WAKEUPS", "P50", "P90", "P99", "MAX",
		       "THE MAX: WHEN (s), CPU, WHO WOKE IT, WHAT HELD THE CPU");
	groups(r, t, o, wait_row);
	f2t_out_putc(o, '\n');
}

static void write_cpus(const struct f2t_report *r, struct f2t_out *o)
{
	uint64_t from, to, len;
	uint32_t n = r->ncpus > r->rec->info.ncpus ? r->ncpus : r->rec->info.ncpus;

	f2t_report_span(r, &from, &to);
	len = to - from;
	f2t_out_printf(o, "CPUs (%% of %.6f s):\n%4s %7s %7s %8s %11s  %s\n", len / 1e9, "CPU",
		       "BUSY", "IDLE", "UNKNOWN", "SWITCHES/S", "LONGEST RUNNING");
	for (uint32_t cpu = 0; cpu < n && cpu < F2T_MAX_CPUS; cpu++) {
		const struct f2t_rcpu *c = &r->cpus[cpu];
		struct f2t_tstate_holder top[3];
		size_t ntop = f2t_report_cpu_top(r, cpu, top, 3);
		uint64_t known = c->busy + c->idle;

		f2t_out_printf(o, "%4u %6.1f%% %6.1f%% %7.1f%% %11.1f  ", cpu, pct(c->busy, len),
			       pct(c->idle, len), pct(known < len ? len - known : 0, len),
			       len ? (double)c->switches * 1e9 / (double)len : 0.0);
		holders(r, o, top, ntop, true);
		f2t_out_putc(o, '\n');
	}
	f2t_out_putc(o, '\n');
}

/* runqlat's picture: one bar per log2 bucket of microseconds. */
static void distribution(const struct f2t_report *r, const struct f2t_table *t,
			 struct f2t_out *o)
{
	const struct f2t_lathist *h = &t->all;
	char b[4][DUR_LEN];
	uint32_t top = 0;
	int last = -1;

	f2t_out_printf(o, "Wakeup latency of %s: %" PRIu64 " wakeups", t->filtered ?
		       "the threads selected" : "all threads", h->count);
	if (!h->count) {
		f2t_out_puts(o, "\n\n");
		return;
	}
	f2t_out_printf(o, ", p50 %s, p90 %s, p99 %s, max %s\n",
		       dur(b[0], f2t_lathist_percentile(h, 50)),
		       dur(b[1], f2t_lathist_percentile(h, 90)),
		       dur(b[2], f2t_lathist_percentile(h, 99)), dur(b[3], h->max));
	for (int i = 0; i < F2T_LAT_LOG2; i++) {
		if (h->log2_us[i])
			last = i;
		if (h->log2_us[i] > top)
			top = h->log2_us[i];
	}
	f2t_out_printf(o, "%10s%-14s : count     distribution\n", "", "usecs");
	for (int i = 0; i <= last; i++) {
		uint64_t lo = i ? 1ull << i : 0, hi = (1ull << (i + 1)) - 1;
		unsigned int stars = (unsigned int)((uint64_t)h->log2_us[i] * 40 / top);
		char bar[41];

		memset(bar, '*', stars);
		memset(bar + stars, ' ', 40 - stars);
		bar[40] = '\0';
		f2t_out_printf(o, "%10" PRIu64 " -> %-10" PRIu64 " : %-9u |%s|\n", lo, hi,
			       h->log2_us[i], bar);
	}
	f2t_out_putc(o, '\n');
}

static void write_slow(const struct f2t_report *r, struct f2t_out *o)
{
	uint64_t first = f2t_tstates_first(r->ts);
	char b[DUR_LEN];
	size_t n = 0;

	for (size_t i = 0; i < r->nslow; i++)
		n += f2t_report_selects(r, r->slow[i].tid);
	f2t_out_printf(o, "Waits for a CPU longer than %s: %zu\n%12s %7s %7s  %-16s %4s %9s  %s\n",
		       dur(b, r->o.slow_ns), n, "WHEN (s)", "PID", "TID", "COMM", "CPU", "WAITED",
		       "WHY / WHAT HELD THE CPU");
	for (size_t i = 0; i < r->nslow; i++) {
		const struct f2t_wait *w = &r->slow[i];

		if (!f2t_report_selects(r, w->tid))
			continue;
		f2t_out_printf(o, "%12.6f %7d %7d  %-16s %4u %9s  ", (w->start - first) / 1e9,
			       f2t_report_pid_of(r, w->tid), w->tid, f2t_report_comm(r, w->tid),
			       w->cpu, dur(b, w->ns));
		write_waker(r, o, w);
		f2t_out_puts(o, "; ");
		holders(r, o, w->held, w->nheld, w->complete);
		f2t_out_putc(o, '\n');
	}
	f2t_out_putc(o, '\n');
}

void f2t_report_write_text(const struct f2t_report *r, const struct f2t_table *t,
			   struct f2t_out *o)
{
	header(r, o);
	tables(r, t, o);
	write_cpus(r, o);
	distribution(r, t, o);
	if (r->o.slow_ns)
		write_slow(r, o);
}
