// SPDX-License-Identifier: MIT
/*
 * The per-thread table as newline-delimited JSON, for the engines that
 * load such files as they are (DuckDB's read_json, ClickHouse's
 * JSONEachRow, BigQuery): one object a line, one line per thread, each
 * with the input and its recording's identity (model/identity.h), the
 * CSV's columns, and the thread's wakeup latencies as the log-linear
 * buckets of report/lathist.h with their counts, which add up exactly
 * across threads, inputs and hosts: a fleet's percentiles are a SQL sum
 * and a running total away.  The schema is in ftrace2trace-report(1).
 */
#include <string.h>

#include "json/json_fmt.h"
#include "model/identity.h"
#include "report/report-local.h"

static void str(struct f2t_out *o, const char *s)
{
	f2t_json_put_string(o, s ? s : "", s ? strlen(s) : 0);
}

/* [{"lo_ns":L,"hi_ns":H,"count":N},...]: the buckets with a count; the last bucket has no end. */
static void buckets(struct f2t_out *o, const struct f2t_lathist *h)
{
	bool first = true;

	f2t_out_putc(o, '[');
	for (unsigned int i = 0; h && i < F2T_LAT_BUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->b[i])
			continue;
		f2t_lathist_bounds(i, &lo, &hi);
		f2t_out_printf(o, "%s{\"lo_ns\":", first ? "" : ",");
		f2t_json_put_u64(o, lo);
		f2t_out_puts(o, ",\"hi_ns\":");
		if (i == F2T_LAT_BUCKETS - 1)
			f2t_out_puts(o, "null");
		else
			f2t_json_put_u64(o, hi);
		f2t_out_printf(o, ",\"count\":%u}", h->b[i]);
		first = false;
	}
	f2t_out_putc(o, ']');
}

static void row(const struct f2t_report *r, const struct f2t_identity *id, const char *process,
		const struct f2t_row *row, struct f2t_out *o)
{
	f2t_out_puts(o, "{\"input\":");
	str(o, r->o.title ? r->o.title : r->rec->path);
	f2t_json_put_identity(o, id, false);
	f2t_out_printf(o, ",\"tid\":%d,\"pid\":%d,\"comm\":", row->tid, row->pid);
	str(o, row->comm);
	f2t_out_puts(o, ",\"process\":");
	str(o, process);
	for (int c = 0; c < C_COUNT; c++) {
		f2t_out_printf(o, ",\"%s\":", f2t_report_col_name(c));
		if (f2t_report_col_needs_wakeups(c) && !row->v[C_WAKEUPS])
			f2t_out_puts(o, "null");
		else
			f2t_json_put_u64(o, row->v[c]);
	}
	f2t_out_puts(o, ",\"wakeup_buckets\":");
	buckets(o, row->hist);
	f2t_out_puts(o, "}\n");
}

void f2t_report_write_ndjson(const struct f2t_report *r, const struct f2t_table *t,
			     struct f2t_out *o)
{
	size_t ng = f2t_report_top(r, t->ngroups);
	struct f2t_identity id;

	f2t_identity_of(&r->rec->info, &id);
	for (size_t i = 0; i < ng; i++) {
		const struct f2t_group *g = &t->groups[i];
		size_t n = f2t_report_top(r, g->n);

		for (size_t j = 0; j < n; j++)
			row(r, &id, g->proc.comm, g->threads[j], o);
	}
}
