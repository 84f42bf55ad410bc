// SPDX-License-Identifier: MIT
/*
 * The report as one JSON document, every figure the text shows and the
 * numbers behind its percentages; the fields are listed in
 * ftrace2trace-report(1).  Times are integers of nanoseconds, instants are
 * relative to the first event.
 */
#include <inttypes.h>
#include <string.h>

#include "json/json_fmt.h"
#include "model/identity.h"
#include "report/report-local.h"

static void str(struct f2t_out *o, const char *s)
{
	f2t_json_put_string(o, s ? s : "", s ? strlen(s) : 0);
}

/* ,"NAME": (no comma first when @first) */
static void key(struct f2t_out *o, const char *name, bool first)
{
	f2t_out_printf(o, "%s\"%s\":", first ? "" : ",", name);
}

static void num(struct f2t_out *o, const char *name, uint64_t v)
{
	key(o, name, false);
	f2t_json_put_u64(o, v);
}

static void holders(const struct f2t_report *r, struct f2t_out *o,
		    const struct f2t_tstate_holder *h, size_t n, const char *what)
{
	f2t_out_putc(o, '[');
	for (size_t i = 0; i < n; i++) {
		f2t_out_printf(o, "%s{\"tid\":%d,\"comm\":", i ? "," : "", h[i].tid);
		str(o, f2t_report_comm(r, h[i].tid));
		num(o, what, h[i].ns);
		f2t_out_putc(o, '}');
	}
	f2t_out_putc(o, ']');
}

static void write_waker(const struct f2t_report *r, struct f2t_out *o, const struct f2t_wait *w)
{
	key(o, "waker", false);
	if (w->preempted || w->waker < 0) {
		f2t_out_puts(o, "null");
		return;
	}
	f2t_out_printf(o, "{\"tid\":%d,\"comm\":", w->waker);
	str(o, f2t_report_comm(r, w->waker));
	f2t_out_putc(o, '}');
}

static void write_held(const struct f2t_report *r, struct f2t_out *o, const struct f2t_wait *w)
{
	key(o, "held_by", false);
	holders(r, o, w->held, w->nheld, "ns");
	key(o, "held_by_complete", false);
	f2t_out_puts(o, w->complete ? "true" : "false");
}

static void row(const struct f2t_report *r, struct f2t_out *o, const struct f2t_row *row)
{
	if (row->tid >= 0)
		f2t_out_printf(o, "{\"tid\":%d,\"pid\":%d,\"comm\":", row->tid, row->pid);
	else
		f2t_out_printf(o, "{\"pid\":%d,\"threads_count\":%u,\"comm\":", row->pid,
			       row->nthreads);
	str(o, row->comm);
	for (int c = 0; c < C_COUNT; c++) {
		key(o, f2t_report_col_name(c), false);
		if (f2t_report_col_needs_wakeups(c) && !row->v[C_WAKEUPS])
			f2t_out_puts(o, "null");
		else
			f2t_json_put_u64(o, row->v[c]);
	}
	if (row->tid >= 0 && row->wmax) {
		key(o, "wakeup_max_detail", false);
		f2t_out_putc(o, '{');
		key(o, "wait_ns", true);
		f2t_json_put_u64(o, row->wmax->ns);
		write_waker(r, o, row->wmax);
		write_held(r, o, row->wmax);
		f2t_out_putc(o, '}');
	}
}

static void processes(const struct f2t_report *r, const struct f2t_table *t, struct f2t_out *o)
{
	size_t ng = f2t_report_top(r, t->ngroups);

	key(o, "processes", false);
	f2t_out_putc(o, '[');
	for (size_t i = 0; i < ng; i++) {
		const struct f2t_group *g = &t->groups[i];
		size_t n = f2t_report_top(r, g->n);

		f2t_out_puts(o, i ? ",\n" : "\n");
		row(r, o, &g->proc);
		key(o, "threads", false);
		f2t_out_putc(o, '[');
		for (size_t j = 0; j < n; j++) {
			f2t_out_puts(o, j ? ",\n " : "\n ");
			row(r, o, g->threads[j]);
			f2t_out_putc(o, '}');
		}
		f2t_out_puts(o, "]}");
	}
	f2t_out_puts(o, "]\n");
}

static void write_cpus(const struct f2t_report *r, struct f2t_out *o)
{
	uint32_t n = r->ncpus > r->rec->info.ncpus ? r->ncpus : r->rec->info.ncpus;
	uint64_t from, to, len;

	f2t_report_span(r, &from, &to);
	len = to - from;
	key(o, "cpus", false);
	f2t_out_putc(o, '[');
	for (uint32_t cpu = 0; cpu < n && cpu < F2T_MAX_CPUS; cpu++) {
		const struct f2t_rcpu *c = &r->cpus[cpu];
		struct f2t_tstate_holder top[3];
		size_t ntop = f2t_report_cpu_top(r, cpu, top, 3);
		uint64_t known = c->busy + c->idle;

		f2t_out_printf(o, "%s{\"cpu\":%u", cpu ? ",\n" : "\n", cpu);
		num(o, "busy_ns", c->busy);
		num(o, "idle_ns", c->idle);
		num(o, "unknown_ns", known < len ? len - known : 0);
		num(o, "switches", c->switches);
		key(o, "switches_per_s", false);
		f2t_json_put_double(o, len ? (double)c->switches * 1e9 / (double)len : 0.0);
		key(o, "top", false);
		holders(r, o, top, ntop, "running_ns");
		f2t_out_putc(o, '}');
	}
	f2t_out_puts(o, "]\n");
}

static void latency(const struct f2t_table *t, struct f2t_out *o)
{
	const struct f2t_lathist *h = &t->all;
	int last = -1;

	key(o, "wakeup_latency", false);
	f2t_out_printf(o, "{\"scope\":\"%s\"", t->filtered ? "selected" : "all");
	num(o, "wakeups", h->count);
	if (h->count) {
		num(o, "p50_ns", f2t_lathist_percentile(h, 50));
		num(o, "p90_ns", f2t_lathist_percentile(h, 90));
		num(o, "p99_ns", f2t_lathist_percentile(h, 99));
		num(o, "max_ns", h->max);
	}
	for (int i = 0; i < F2T_LAT_LOG2; i++)
		if (h->log2_us[i])
			last = i;
	key(o, "histogram_us", false);
	f2t_out_putc(o, '[');
	for (int i = 0; i <= last; i++)
		f2t_out_printf(o, "%s{\"from_us\":%llu,\"to_us\":%llu,\"count\":%u}", i ? "," : "",
			       i ? 1ull << i : 0ull, (1ull << (i + 1)) - 1, h->log2_us[i]);
	f2t_out_puts(o, "]}\n");
}

static void write_slow(const struct f2t_report *r, struct f2t_out *o)
{
	uint64_t first = f2t_tstates_first(r->ts);
	bool any = false;

	num(o, "slow_threshold_ns", r->o.slow_ns);
	key(o, "slow_waits", false);
	f2t_out_putc(o, '[');
	for (size_t i = 0; i < r->nslow; i++) {
		const struct f2t_wait *w = &r->slow[i];

		if (!f2t_report_selects(r, w->tid))
			continue;
		f2t_out_printf(o, "%s{\"start_ns\":%" PRIu64 ",\"tid\":%d,\"pid\":%d,\"comm\":",
			       any ? ",\n" : "\n", w->start - first, w->tid,
			       f2t_report_pid_of(r, w->tid));
		any = true;
		str(o, f2t_report_comm(r, w->tid));
		f2t_out_printf(o, ",\"cpu\":%u,\"wait_ns\":%" PRIu64 ",\"kind\":\"%s\"", w->cpu, w->ns,
			       w->preempted ? "preempted" : "wakeup");
		write_waker(r, o, w);
		write_held(r, o, w);
		f2t_out_putc(o, '}');
	}
	f2t_out_puts(o, "]\n");
}

void f2t_report_write_json(const struct f2t_report *r, const struct f2t_table *t,
			   struct f2t_out *o)
{
	const struct f2t_trace_info *info = &r->rec->info;
	const struct f2t_stats *st = &r->st;
	uint64_t first = f2t_tstates_first(r->ts), from, to, unknown = 0;
	struct f2t_identity id;

	f2t_report_span(r, &from, &to);
	f2t_out_puts(o, "{\"input\":");
	str(o, r->o.title ? r->o.title : r->rec->path);
	f2t_identity_of(info, &id);
	f2t_out_puts(o, ",\"recording\":{");
	f2t_json_put_identity(o, &id, true);
	f2t_out_puts(o, "},\n\"trace\":{");
	key(o, "first_event_ns", true);
	f2t_json_put_u64(o, first);
	num(o, "duration_ns", f2t_tstates_last(r->ts) - first);
	num(o, "window_from_ns", from - first);
	num(o, "window_to_ns", to - first);
	f2t_out_puts(o, "},\n\"events\":{");
	key(o, "total", true);
	f2t_json_put_u64(o, st->total_events);
	num(o, "lost", st->lost_events);
	num(o, "lost_marked", st->lost_marked);
	num(o, "ring_buffer_overrun", st->kernel_overrun);
	num(o, "dropped", st->kernel_dropped);
	num(o, "pages_flagged", st->lost_pages);
	num(o, "sched_gaps", f2t_tstates_counts(r->ts)->gaps);
	f2t_out_puts(o, "},\n");
	key(o, "thread_time_ns", true);
	f2t_json_put_u64(o, r->thread_ns);
	key(o, "unknown_ns", false);
	for (int w = 0; w < F2T_TSW_COUNT; w++)
		unknown += r->unknown_why[w];
	f2t_out_putc(o, '{');
	key(o, "total", true);
	f2t_json_put_u64(o, unknown);
	for (int w = F2T_TSW_BEFORE; w < F2T_TSW_COUNT; w++)
		num(o, f2t_tstate_why_name(w), r->unknown_why[w]);
	f2t_out_puts(o, "}\n");
	processes(r, t, o);
	write_cpus(r, o);
	latency(t, o);
	if (r->o.slow_ns)
		write_slow(r, o);
	f2t_out_puts(o, "}\n");
}
