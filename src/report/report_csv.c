// SPDX-License-Identifier: MIT
/*
 * The per-thread table as CSV (RFC 4180 quoting, lines end in LF): a
 * header line of stable column names, then one line per thread, in the
 * text's order and --top selection.  A column with no value (a percentile of a thread with no
 * wakeup) is empty.
 */
#include <string.h>

#include "json/json_fmt.h"
#include "report/report-local.h"

/* A field, quoted when it holds a comma, a quote, a line break or edge spaces. */
static void field(struct f2t_out *o, const char *s)
{
	size_t len = strlen(s);

	if (!strpbrk(s, ",\"\r\n") && (!len || (s[0] != ' ' && s[len - 1] != ' '))) {
		f2t_out_write(o, s, len);
		return;
	}
	f2t_out_putc(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			f2t_out_putc(o, '"');
		f2t_out_putc(o, *s);
	}
	f2t_out_putc(o, '"');
}

void f2t_report_write_csv(const struct f2t_report *r, const struct f2t_table *t,
			  struct f2t_out *o)
{
	size_t ng = f2t_report_top(r, t->ngroups);

	f2t_out_puts(o, "tid,pid,comm");
	for (int c = 0; c < C_COUNT; c++)
		f2t_out_printf(o, ",%s", f2t_report_col_name(c));
	f2t_out_putc(o, '\n');
	for (size_t i = 0; i < ng; i++) {
		const struct f2t_group *g = &t->groups[i];
		size_t n = f2t_report_top(r, g->n);

		for (size_t j = 0; j < n; j++) {
			const struct f2t_row *row = g->threads[j];

			f2t_out_printf(o, "%d,%d,", row->tid, row->pid);
			field(o, row->comm);
			for (int c = 0; c < C_COUNT; c++) {
				f2t_out_putc(o, ',');
				if (!f2t_report_col_needs_wakeups(c) || row->v[C_WAKEUPS])
					f2t_json_put_u64(o, row->v[c]);
			}
			f2t_out_putc(o, '\n');
		}
	}
}
