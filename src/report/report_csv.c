// SPDX-License-Identifier: MIT
/*
 * The per-thread table as CSV (RFC 4180 quoting, lines end in LF): a
 * header line of stable column names, then one line per thread, in the
 * text's order and --top selection.  A column with no value (a percentile of a thread with no
 * wakeup, an identity number the input does not give) is empty.  After the
 * figures, the thread's process name, the input and its recording's
 * identity (model/identity.h), so that several inputs make one table
 * (f2t_report_run_many(): one header).
 */
#include <string.h>

#include "json/json_fmt.h"
#include "model/identity.h"
#include "report/report-local.h"

void f2t_report_csv_field(struct f2t_out *o, const char *s)
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

static void identity(struct f2t_out *o, const struct f2t_identity *id)
{
	for (size_t k = 0; k < id->n; k++) {
		const struct f2t_ident *f = &id->f[k];

		f2t_out_putc(o, ',');
		if (f->str)
			f2t_report_csv_field(o, f->str);
		else if (f->known)
			f2t_json_put_i64(o, f->num);
	}
}

void f2t_report_write_csv(const struct f2t_report *r, const struct f2t_table *t,
			  struct f2t_out *o)
{
	size_t ng = f2t_report_top(r, t->ngroups);
	struct f2t_identity id;

	f2t_identity_of(&r->rec->info, &id);
	if (!r->continued) {
		f2t_out_puts(o, "tid,pid,comm");
		for (int c = 0; c < C_COUNT; c++)
			f2t_out_printf(o, ",%s", f2t_report_col_name(c));
		f2t_out_puts(o, ",process,input");
		for (size_t k = 0; k < id.n; k++)
			f2t_out_printf(o, ",%s", id.f[k].key);
		f2t_out_putc(o, '\n');
	}
	for (size_t i = 0; i < ng; i++) {
		const struct f2t_group *g = &t->groups[i];
		size_t n = f2t_report_top(r, g->n);

		for (size_t j = 0; j < n; j++) {
			const struct f2t_row *row = g->threads[j];

			f2t_out_printf(o, "%d,%d,", row->tid, row->pid);
			f2t_report_csv_field(o, row->comm);
			for (int c = 0; c < C_COUNT; c++) {
				f2t_out_putc(o, ',');
				if (!f2t_report_col_needs_wakeups(c) || row->v[C_WAKEUPS])
					f2t_json_put_u64(o, row->v[c]);
			}
			f2t_out_putc(o, ',');
			f2t_report_csv_field(o, g->proc.comm);
			f2t_out_putc(o, ',');
			f2t_report_csv_field(o, r->o.title ? r->o.title : r->rec->path ? r->rec->path : "");
			identity(o, &id);
			f2t_out_putc(o, '\n');
		}
	}
}
