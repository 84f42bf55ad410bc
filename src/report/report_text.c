// SPDX-License-Identifier: MIT
/*
 * The report as text for a terminal: what the trace covers and how well,
 * the per-thread tables under their processes, the CPUs, the latency
 * distribution as runqlat draws it, the slow waits as runqslower lists
 * them.  ftrace2trace-report(1) shows an example.
 */
#include <inttypes.h>
#include <stdarg.h>
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

/* Text of bounded length built up piece by piece (a cell, a wait's tail). */
struct sbuf {
	char b[1024];
	size_t n;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->n >= sizeof(sb->b) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->b + sb->n, sizeof(sb->b) - sb->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb->n += (size_t)n < sizeof(sb->b) - sb->n ? (size_t)n : sizeof(sb->b) - 1 - sb->n;
}

/* The columns of the two per-thread tables after PID, TID and COMM. */
enum { T_LIFE, T_RUNNING, T_WOKEN, T_PREEMPTED, T_SLEEPING, T_BLOCKED, T_OTHER, T_UNKNOWN,
       T_COUNT };
enum { W_VOL, W_INV, W_MIGR, W_WAKEUPS, W_P50, W_P90, W_P99, W_MAX, W_COUNT };

struct col {
	const char *head;
	int w, pad;		/* width, of which spaces before the value */
};

#define WHO_W 39		/* "%7d %7d  %-22s" */

static const struct col tcols[T_COUNT] = {
	[T_LIFE] = { "LIFE", 10, 1 }, [T_RUNNING] = { "RUNNING", 16, 2 },
	[T_WOKEN] = { "RUNNABLE:WOKEN", 16, 2 }, [T_PREEMPTED] = { "RUNNABLE:PREEMPT", 16, 2 },
	[T_SLEEPING] = { "SLEEPING(S)", 16, 2 }, [T_BLOCKED] = { "BLOCKED(D)", 16, 2 },
	[T_OTHER] = { "OTHER(I,T,P)", 16, 2 }, [T_UNKNOWN] = { "UNKNOWN", 16, 2 },
};
static const struct col wcols[W_COUNT] = {
	[W_VOL] = { "SW:VOL", 8, 1 }, [W_INV] = { "SW:INV", 8, 1 }, [W_MIGR] = { "MIGR", 7, 1 },
	[W_WAKEUPS] = { "WAKEUPS", 9, 1 }, [W_P50] = { "P50", 10, 1 }, [W_P90] = { "P90", 10, 1 },
	[W_P99] = { "P99", 10, 1 }, [W_MAX] = { "MAX", 10, 1 },
};
/* What a table narrower than its columns loses, first to last (ftrace2trace-report(1)). */
static const int tdrop[] = { T_OTHER, T_UNKNOWN, T_LIFE, T_BLOCKED, T_PREEMPTED, T_SLEEPING };
static const int wdrop[] = { W_P90, W_MIGR, W_INV, W_VOL, W_P50 };

/* Which columns fit in r->o.width, and whether a wait's tail goes on its row. */
struct layout {
	bool t[T_COUNT], w[W_COUNT];
	bool tail_inline;
	unsigned int width;
};

static void lay_out(const struct f2t_report *r, struct layout *l)
{
	int tw = WHO_W, ww = WHO_W;

	l->width = r->o.width;
	l->tail_inline = !l->width;
	for (int c = 0; c < T_COUNT; c++)
		l->t[c] = true, tw += tcols[c].w;
	for (int c = 0; c < W_COUNT; c++)
		l->w[c] = true, ww += wcols[c].w;
	for (size_t i = 0; l->width && tw > (int)l->width && i < sizeof(tdrop) / sizeof(*tdrop); i++)
		l->t[tdrop[i]] = false, tw -= tcols[tdrop[i]].w;
	for (size_t i = 0; l->width && ww > (int)l->width && i < sizeof(wdrop) / sizeof(*wdrop); i++)
		l->w[wdrop[i]] = false, ww -= wcols[wdrop[i]].w;
}

static void head_cells(struct f2t_out *o, const struct col *cols, const bool *shown, int n)
{
	f2t_out_printf(o, "%7s %7s  %-22s", "PID", "TID", "COMM");
	for (int c = 0; c < n; c++)
		if (shown[c])
			f2t_out_printf(o, "%*s%*s", cols[c].pad, "", cols[c].w - cols[c].pad,
				       cols[c].head);
}

/* PID, TID and COMM of a row: a process's roll-up, one of its threads, or the others. */
static void who(struct f2t_out *o, const struct f2t_row *row, bool alone)
{
	char comm[40];

	if (row->pid < 0) {
		snprintf(comm, sizeof(comm), "%u others, %u threads", row->nprocs, row->nthreads);
		f2t_out_printf(o, "%7s %7s  %-22s", "-", "-", comm);
	} else if (row->tid < 0) {
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

static void time_row(const struct f2t_report *r, const struct layout *l, struct f2t_out *o,
		     const struct f2t_row *row, bool alone)
{
	static const enum f2t_report_col state[T_COUNT] = {
		[T_RUNNING] = C_RUNNING, [T_WOKEN] = C_WOKEN, [T_PREEMPTED] = C_PREEMPTED,
		[T_SLEEPING] = C_SLEEPING, [T_BLOCKED] = C_BLOCKED, [T_UNKNOWN] = C_UNKNOWN,
	};
	const uint64_t *v = row->v;
	char b[DUR_LEN];

	who(o, row, alone);
	if (l->t[T_LIFE])
		f2t_out_printf(o, " %9s", dur(b, v[C_LIFE]));
	for (int c = T_RUNNING; c < T_COUNT; c++)
		if (l->t[c])
			time_cell(o, c == T_OTHER ? v[C_IDLE] + v[C_STOPPED] : v[state[c]],
				  v[C_LIFE]);
	f2t_out_putc(o, '\n');
}

static void holders(const struct f2t_report *r, struct sbuf *sb,
		    const struct f2t_tstate_holder *h, size_t n, bool complete)
{
	char b[DUR_LEN];

	for (size_t i = 0; i < n; i++) {
		sb_printf(sb, "%s%s", i ? ", " : "", f2t_report_comm(r, h[i].tid));
		if (h[i].tid > 0)
			sb_printf(sb, "[%d]", h[i].tid);
		sb_printf(sb, " %s", dur(b, h[i].ns));
	}
	if (!complete)
		sb_printf(sb, "%s", n ? ", ..." : "not known");
}

static void write_waker(const struct f2t_report *r, struct sbuf *sb, const struct f2t_wait *w)
{
	if (w->preempted)
		sb_printf(sb, "preempted");
	else if (w->waker < 0)
		sb_printf(sb, "woken by ?");
	else
		sb_printf(sb, "woken by %s[%d]", f2t_report_comm(r, w->waker), w->waker);
}

/*
 * @sb's text from column @col of the current line on, in lines of at most
 * @width columns (0: one line), the next ones after @indent spaces, cut at
 * blanks; a line of fewer than 20 columns is not cut.
 */
static void wrap(struct f2t_out *o, const struct sbuf *sb, size_t col, size_t indent,
		 size_t width)
{
	size_t at = 0;

	if (col < indent)
		f2t_out_printf(o, "%*s", (int)(indent - col), "");
	if (col < indent)
		col = indent;
	do {
		size_t room = !width ? sb->n : width > col + 20 ? width - col : 20;
		size_t len = sb->n - at;

		if (len > room) {
			size_t cut = room;

			while (cut > 0 && sb->b[at + cut] != ' ')
				cut--;
			len = cut ? cut : room;
		}
		f2t_out_printf(o, "%.*s\n", (int)len, sb->b + at);
		at += len;
		while (at < sb->n && sb->b[at] == ' ')
			at++;
		if (at < sb->n)
			f2t_out_printf(o, "%*s", (int)indent, "");
		col = indent;
	} while (at < sb->n);
}

static void wait_row(const struct f2t_report *r, const struct layout *l, struct f2t_out *o,
		     const struct f2t_row *row, bool alone)
{
	static const enum f2t_report_col counts[] = {
		[W_VOL] = C_VOL, [W_INV] = C_INVOL, [W_MIGR] = C_MIGRATIONS, [W_WAKEUPS] = C_WAKEUPS,
		[W_P50] = C_P50, [W_P90] = C_P90, [W_P99] = C_P99, [W_MAX] = C_MAX,
	};
	const uint64_t *v = row->v;
	struct sbuf tail = { .n = 0 };
	char b[DUR_LEN];

	who(o, row, alone);
	for (int c = 0; c < W_COUNT; c++) {
		int w = wcols[c].w - wcols[c].pad;

		if (!l->w[c])
			continue;
		if (c <= W_WAKEUPS)
			f2t_out_printf(o, " %*" PRIu64, w, v[counts[c]]);
		else
			f2t_out_printf(o, " %*s", w, v[C_WAKEUPS] ? dur(b, v[counts[c]]) : "-");
	}
	if (!v[C_WAKEUPS]) {
		f2t_out_putc(o, '\n');
		return;
	}
	sb_printf(&tail, "at %.6f cpu %" PRIu64 " ", v[C_MAX_AT] / 1e9, v[C_MAX_CPU]);
	if (row->wmax) {
		write_waker(r, &tail, row->wmax);
		sb_printf(&tail, "; cpu held by ");
		holders(r, &tail, row->wmax->held, row->wmax->nheld, row->wmax->complete);
	}
	if (l->tail_inline) {
		f2t_out_printf(o, "  %.*s\n", (int)tail.n, tail.b);
		return;
	}
	f2t_out_putc(o, '\n');
	wrap(o, &tail, 0, 20, l->width);
}

typedef void (*row_fn)(const struct f2t_report *r, const struct layout *l, struct f2t_out *o,
		       const struct f2t_row *row, bool alone);

static void group_rows(const struct f2t_report *r, const struct layout *l, struct f2t_out *o,
		       const struct f2t_group *g, row_fn fn)
{
	size_t n = f2t_report_top(r, g->n);

	if (g->n == 1 && g->threads[0]->tid == g->proc.pid) {
		fn(r, l, o, g->threads[0], true);
		return;
	}
	fn(r, l, o, &g->proc, false);
	for (size_t j = 0; j < n; j++)
		fn(r, l, o, g->threads[j], false);
	if (n < g->n)
		f2t_out_printf(o, "%16s  ... %zu more threads\n", "", g->n - n);
}

/*
 * The groups --top lets through: the recording's own processes first (when
 * it names them and no filter was given), then the others, or the others
 * summed in one row (t->others) unless --all-processes.
 */
static void groups(const struct f2t_report *r, const struct f2t_table *t, const struct layout *l,
		   struct f2t_out *o, row_fn fn)
{
	bool focus = r->focus.n && !t->filtered;
	size_t shown = 0, left = 0, top = f2t_report_top(r, t->ngroups);

	for (int pass = focus ? 0 : 1; pass < 2; pass++) {
		if (pass == 1 && focus && !r->o.all_processes)
			break;
		for (size_t i = 0; i < t->ngroups; i++) {
			const struct f2t_group *g = &t->groups[i];

			if (focus && f2t_report_focused(r, g->proc.pid) != !pass)
				continue;
			if (shown == top) {
				left++;
				continue;
			}
			shown++;
			group_rows(r, l, o, g, fn);
		}
	}
	if (left)
		f2t_out_printf(o, "... %zu more processes (--top)\n", left);
	if (t->others.nprocs)
		fn(r, l, o, &t->others, false);
}

/* "(left out to fit ...)" when the layout dropped columns. */
static void dropped(const struct layout *l, struct f2t_out *o)
{
	struct sbuf sb = { .n = 0 };
	const char *sep = "(left out to fit the width: ";

	for (size_t i = 0; i < sizeof(tdrop) / sizeof(*tdrop); i++)
		if (!l->t[tdrop[i]]) {
			sb_printf(&sb, "%s%s", sep, tcols[tdrop[i]].head);
			sep = ", ";
		}
	for (size_t i = 0; i < sizeof(wdrop) / sizeof(*wdrop); i++)
		if (!l->w[wdrop[i]]) {
			sb_printf(&sb, "%s%s", sep, wcols[wdrop[i]].head);
			sep = ", ";
		}
	if (!sb.n)
		return;
	sb_printf(&sb, "; --wide shows them)");
	wrap(o, &sb, 0, 0, l->width);
}

static void tables(const struct f2t_report *r, const struct f2t_table *t, struct f2t_out *o)
{
	struct layout l;

	lay_out(r, &l);
	f2t_out_printf(o, "Where each thread's time went (%% of its observed life), by process:\n%s",
		       !r->focus.n || t->filtered ? "" : r->o.all_processes ?
		       "(the recording's processes first: its command's or -p's, what they started)\n" :
		       "(the recording's processes, then the others in one row: --all-processes)\n");
	head_cells(o, tcols, l.t, T_COUNT);
	f2t_out_putc(o, '\n');
	groups(r, t, &l, o, time_row);
	f2t_out_printf(o, "\nContext switches, migrations, wakeup latency (waking -> running):\n%s",
		       l.tail_inline ? "" : "(under each row, its longest wait: when (s), CPU, waker, "
		       "what held the CPU)\n");
	head_cells(o, wcols, l.w, W_COUNT);
	f2t_out_puts(o, l.tail_inline ? "  THE MAX: WHEN (s), CPU, WHO WOKE IT, WHAT HELD THE CPU\n" :
		     "\n");
	groups(r, t, &l, o, wait_row);
	dropped(&l, o);
	f2t_out_putc(o, '\n');
}

#define CPU_ROW_W 43	/* a CPU's row before its longest running tasks */

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

		struct sbuf sb = { .n = 0 };

		f2t_out_printf(o, "%4u %6.1f%% %6.1f%% %7.1f%% %11.1f  ", cpu, pct(c->busy, len),
			       pct(c->idle, len), pct(known < len ? len - known : 0, len),
			       len ? (double)c->switches * 1e9 / (double)len : 0.0);
		holders(r, &sb, top, ntop, true);
		wrap(o, &sb, CPU_ROW_W, CPU_ROW_W, r->o.width);
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

	/* A trace recorded without them (a Perfetto config may leave them out) says nothing of waits. */
	if (!r->st.events[F2T_EV_WAKING] && !r->st.events[F2T_EV_WAKEUP] &&
	    !r->st.events[F2T_EV_WAKEUP_NEW]) {
		f2t_out_puts(o, "Wakeup latency: unknown: the trace has no sched_waking or sched_wakeup events\n\n");
		return;
	}
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
		struct sbuf sb = { .n = 0 };

		if (!f2t_report_selects(r, w->tid))
			continue;
		f2t_out_printf(o, "%12.6f %7d %7d  %-16s %4u %9s  ", (w->start - first) / 1e9,
			       f2t_report_pid_of(r, w->tid), w->tid, f2t_report_comm(r, w->tid),
			       w->cpu, dur(b, w->ns));
		write_waker(r, &sb, w);
		sb_printf(&sb, "; ");
		holders(r, &sb, w->held, w->nheld, w->complete);
		f2t_out_printf(o, "%.*s\n", (int)sb.n, sb.b);
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
